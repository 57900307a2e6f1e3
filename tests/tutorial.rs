//! `docs/tutorial.md` as a new user follows it: in an empty folder, every file it says to create
//! is written from its code block, every `$ command` is run in `sh` (with this build's `eudify`
//! first on PATH) and prints exactly the output shown under it, in the order the text gives
//! them — the deliberate typo of step 3 fixed where the text says "Fix it". The page step runs
//! its command and checks the page is written.

use crate::common::{eudify_binary, TempTree};
use std::path::Path;
use std::process::Command;

/// One thing the tutorial asks for, in order.
enum Step {
    /// "Create `PATH`" and the code block after it.
    Create { path: String, text: String },
    /// A `$ command` and the output shown under it.
    Run { command: String, output: String },
    /// A command of a ```sh block (no output shown): it must succeed.
    Succeed { command: String },
}

/// The steps of the tutorial's text, in order.
fn steps(tutorial: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut create: Option<String> = None;
    let mut lines = tutorial.lines();
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix("Create `") {
            create = rest.split('`').next().map(str::to_string);
            continue;
        }
        let Some(fence) = line.strip_prefix("```") else {
            continue;
        };
        let block: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        if let Some(path) = create.take() {
            steps.push(Step::Create {
                path,
                text: block.join("\n") + "\n",
            });
        } else if block.first().is_some_and(|l| l.starts_with("$ ")) {
            for line in block {
                match line.strip_prefix("$ ") {
                    Some(command) => steps.push(Step::Run {
                        command: command.to_string(),
                        output: String::new(),
                    }),
                    None => {
                        if let Some(Step::Run { output, .. }) = steps.last_mut() {
                            output.push_str(line);
                            output.push('\n');
                        }
                    }
                }
            }
        } else if fence == "sh" {
            // The setup block (`mkdir`, `cp` from a checkout) is done by the test itself.
            steps.extend(block.iter().filter(|l| l.starts_with("eudify ")).map(|l| {
                Step::Succeed {
                    command: l.to_string(),
                }
            }));
        }
    }
    steps
}

fn shell(dir: &Path, command: &str) -> (bool, String) {
    let bin = eudify_binary();
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("{{ {command}\n}} 2>&1"))
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .expect("sh runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_tutorial_runs_as_written() {
    let root = env!("CARGO_MANIFEST_DIR");
    let tutorial = std::fs::read_to_string(Path::new(root).join("docs/tutorial.md")).unwrap();
    let ewt = std::fs::read_to_string(Path::new(root).join("tests/data/ud/English-EWT/dev.conllu"))
        .unwrap();
    let dir = TempTree::new("tutorial", &[("ewt.conllu", &ewt)]);
    let steps = steps(&tutorial);
    let runs = steps
        .iter()
        .filter(|s| matches!(s, Step::Run { .. }))
        .count();
    assert!(runs >= 10, "only {runs} commands found in docs/tutorial.md");
    let mut typo_fixed = false;
    for step in &steps {
        match step {
            Step::Create { path, text } => {
                let path = dir.0.join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            Step::Run { command, output } => {
                let (_, printed) = shell(&dir.0, command);
                assert_eq!(
                    &printed, output,
                    "docs/tutorial.md: `$ {command}` prints otherwise"
                );
                // Step 3: "Fix it: `VerbForm=Part`", after the check that found the typo.
                if !typo_fixed && printed.contains("unknown value `Prt`") {
                    let rule = dir.0.join("my-rules/mine/passive_agent.rules");
                    let text = std::fs::read_to_string(&rule).unwrap();
                    std::fs::write(&rule, text.replace("VerbForm=Prt", "VerbForm=Part")).unwrap();
                    typo_fixed = true;
                }
            }
            Step::Succeed { command } => {
                let (ok, printed) = shell(&dir.0, command);
                assert!(ok, "docs/tutorial.md: `{command}` fails: {printed}");
            }
        }
    }
    assert!(
        typo_fixed,
        "the tutorial's check no longer finds the typo it fixes"
    );
    assert!(
        dir.0.join("agent.html").is_file(),
        "the page step wrote no page"
    );
}
