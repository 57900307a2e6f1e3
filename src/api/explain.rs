//! What the rules did to each sentence: every rule application in order, and the rule behind
//! each edge of the result ([`Enhancer::explain`]; `eudify explain` prints it).

use super::{Enhancer, STRING_NAME};
use crate::conllu::sentence::FORM;
use crate::conllu::{BlockReader, EnhancedLayer, RawBlock, Sentence};
use crate::engine::trace::EdgeText;
use crate::error::Error;
use crate::graph::Origin;
use std::io::BufRead;

impl Enhancer {
    /// Enhances CoNLL-U text as [`Enhancer::enhance_str`] does and tells, per sentence, what
    /// each rule application did, in order, and which rule made each edge of the result.
    /// Errors name the input `<string>`.
    ///
    /// ```
    /// let enhancer = eudify::Enhancer::for_profile("en", None)?;
    /// let text = "1\tto\tto\tADP\t_\t_\t2\tcase\t_\t_\n2\tPrague\tPrague\tPROPN\t_\t_\t0\troot\t_\t_\n\n";
    /// let sentences = enhancer.explain(text)?;
    /// assert_eq!(sentences[0].edges[0].rule, None); // 2 → 1 case: the basic copy
    /// # Ok::<(), eudify::Error>(())
    /// ```
    pub fn explain(&self, conllu: &str) -> Result<Vec<Explanation>, Error> {
        let mut sentences = Vec::new();
        self.explain_each(STRING_NAME, conllu.as_bytes(), &mut |sentence| {
            sentences.push(sentence);
            Ok(())
        })?;
        Ok(sentences)
    }

    /// [`Enhancer::explain`] over everything `input` gives, one sentence at a time: `each`
    /// receives each sentence's explanation in input order and may stop the run with an error.
    /// `file` names the input in errors.
    pub fn explain_each(
        &self,
        file: &str,
        input: impl BufRead,
        each: &mut dyn FnMut(Explanation) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut reader = BlockReader::new(input);
        let mut block = RawBlock::default();
        let mut layer = EnhancedLayer::default();
        let engine = &self.engine;
        let rule = |r: u32| {
            let compiled = &engine.rules[r as usize].rule;
            RuleRef {
                name: compiled.name.to_string(),
                file: compiled.path.clone(),
                line: compiled.span.line as usize,
                phase: engine.phase_of(r).to_string(),
            }
        };
        let change = |edge: &EdgeText, old_label: Option<&str>| EdgeChange {
            dependent: edge.dependent.to_string(),
            head: edge.head.to_string(),
            label: edge.label.clone(),
            old_label: old_label.map(str::to_string),
        };
        while reader.read_block(&mut block).map_err(|error| Error::Io {
            file: file.to_string(),
            error,
        })? {
            if block.is_blank() {
                continue;
            }
            // The enhanced layer is recomputed: the input's DEPS do not count.
            let sentence =
                Sentence::parse_ignoring_deps(std::mem::take(&mut block)).map_err(|e| {
                    Error::Input {
                        file: file.to_string(),
                        line: e.1.line,
                        message: e.1.message,
                    }
                })?;
            let trace = engine.trace(&sentence, &mut layer);
            let applications = trace
                .applications
                .iter()
                .map(|a| RuleApplication {
                    rule: rule(a.rule),
                    added: a.added.iter().map(|e| change(e, None)).collect(),
                    removed: a.removed.iter().map(|e| change(e, None)).collect(),
                    relabelled: a
                        .relabelled
                        .iter()
                        .map(|(e, old)| change(e, Some(old)))
                        .collect(),
                    empty_nodes: a.empty_nodes.iter().map(|id| id.to_string()).collect(),
                })
                .collect();
            let edges = trace
                .edges
                .iter()
                .map(|e| EnhancedEdge {
                    dependent: e.dependent.to_string(),
                    form: (!e.dependent.is_empty_node()).then(|| {
                        sentence
                            .column(sentence.word(e.dependent.word), FORM)
                            .to_string()
                    }),
                    head: e.head.to_string(),
                    label: e.label.clone(),
                    rule: match e.origin {
                        Origin::Basic => None,
                        Origin::Rule(r) => Some(rule(r)),
                    },
                })
                .collect();
            each(Explanation {
                sent_id: sentence.comment("sent_id").map(str::to_string),
                text: sentence.comment("text").map(str::to_string),
                line: sentence.first_line,
                applications,
                edges,
                runaway: trace.runaway.map(|e| e.to_string()),
            })?;
        }
        Ok(())
    }
}

/// One sentence as [`Enhancer::explain`] tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The sentence's `# sent_id`, if it has one.
    pub sent_id: Option<String>,
    /// The sentence's `# text`, if it has one.
    pub text: Option<String>,
    /// The line of the input where the sentence starts, from 1.
    pub line: usize,
    /// The rule applications that changed the enhanced graph, in the order they were made.
    pub applications: Vec<RuleApplication>,
    /// Every edge of the enhanced graph written out, sorted by dependent, head and label.
    pub edges: Vec<EnhancedEdge>,
    /// Why the rules were stopped on this sentence (they ran away): its output is then the
    /// basic copy, as `eudify enhance` writes it, and `applications` those made before.
    pub runaway: Option<String>,
}

/// A rule of the profile, where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleRef {
    /// The rule's name.
    pub name: String,
    /// Its rule file (`rules/universal/case.rules`).
    pub file: String,
    /// The line of the file where the rule starts, from 1.
    pub line: usize,
    /// The phase it runs in.
    pub phase: String,
}

/// What one application of a rule (to one match) changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleApplication {
    /// The rule applied.
    pub rule: RuleRef,
    /// Edges added.
    pub added: Vec<EdgeChange>,
    /// Edges removed.
    pub removed: Vec<EdgeChange>,
    /// Edges given a new label (`label`; the old one is `old_label`).
    pub relabelled: Vec<EdgeChange>,
    /// Empty nodes added, by their id on output (`5.1`).
    pub empty_nodes: Vec<String>,
}

/// An edge a rule application changed. Node ids are written as in CoNLL-U (`0` the root,
/// `5.1` an empty node).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeChange {
    /// The dependent's id.
    pub dependent: String,
    /// The head's id.
    pub head: String,
    /// The edge's label (after the change, for a relabelled edge).
    pub label: String,
    /// A relabelled edge's label before the change; `None` for added and removed edges.
    pub old_label: Option<String>,
}

/// An edge of the enhanced graph written out, with where it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnhancedEdge {
    /// The dependent's id.
    pub dependent: String,
    /// The dependent's FORM; `None` for an empty node.
    pub form: Option<String>,
    /// The head's id.
    pub head: String,
    /// The label.
    pub label: String,
    /// The rule that added it or last changed its label; `None`: the basic tree's edge, copied.
    pub rule: Option<RuleRef>,
}

impl std::fmt::Display for RuleRef {
    /// `name (file:line)`, as `eudify explain` shows a rule.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}:{})", self.name, self.file, self.line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    const SENTENCE: &str = "# text = Ahoj\n1\tAhoj\tahoj\tINTJ\t_\t_\t0\troot\t_\t_\n\n";

    /// Mary sang and danced in Prague.
    const COORDINATION: &str = "# sent_id = s1\n1\tMary\tMary\tPROPN\t_\t_\t2\tnsubj\t_\t_\n\
        2\tsang\tsing\tVERB\t_\t_\t0\troot\t_\t_\n3\tand\tand\tCCONJ\t_\t_\t4\tcc\t_\t_\n\
        4\tdanced\tdance\tVERB\t_\t_\t2\tconj\t_\t_\n5\tin\tin\tADP\t_\t_\t6\tcase\t_\t_\n\
        6\tPrague\tPrague\tPROPN\t_\t_\t4\tobl\t_\t_\n\n";

    fn edge(dependent: &str, head: &str, label: &str, old_label: Option<&str>) -> EdgeChange {
        let old_label = old_label.map(str::to_string);
        EdgeChange {
            dependent: dependent.into(),
            head: head.into(),
            label: label.into(),
            old_label,
        }
    }

    #[test]
    fn explain_lists_each_application_and_each_edges_rule() {
        let enhancer = Enhancer::for_profile("en", None).unwrap();
        let text = format!("{SENTENCE}{COORDINATION}");
        let sentences = enhancer.explain(&text).unwrap();
        assert_eq!(sentences.len(), 2);
        assert_eq!(
            (sentences[0].sent_id.as_deref(), sentences[0].line),
            (None, 1)
        );
        assert!(sentences[0].applications.is_empty());
        let s = &sentences[1];
        assert_eq!(
            (s.sent_id.as_deref(), s.line, s.runaway.as_deref()),
            (Some("s1"), 4, None)
        );
        // Each change once, by the rule that made it, in the order made.
        let changes: Vec<(&str, Vec<EdgeChange>, Vec<EdgeChange>)> = s
            .applications
            .iter()
            .map(|a| (a.rule.name.as_str(), a.added.clone(), a.relabelled.clone()))
            .collect();
        let shared = (
            "shared_subject",
            vec![edge("1", "4", "nsubj", None)],
            vec![],
        );
        let conj = (
            "conj_label",
            vec![],
            vec![edge("4", "2", "conj:and", Some("conj"))],
        );
        let case = (
            "case_label",
            vec![],
            vec![edge("6", "4", "obl:in", Some("obl"))],
        );
        for expected in [&shared, &conj, &case] {
            assert_eq!(
                changes.iter().filter(|c| c == &expected).count(),
                1,
                "{expected:?} in {changes:?}"
            );
        }
        assert_eq!(changes.len(), 3, "{changes:?}");
        assert!(s
            .applications
            .iter()
            .all(|a| a.removed.is_empty() && a.empty_nodes.is_empty()));
        let case_rule = &s
            .applications
            .iter()
            .find(|a| a.rule.name == "case_label")
            .unwrap()
            .rule;
        assert!(
            case_rule.file.ends_with("case.rules")
                && case_rule.line > 0
                && !case_rule.phase.is_empty(),
            "{case_rule:?}"
        );
        // The edges as written, each with its rule (None: the basic copy).
        let edges: Vec<(&str, &str, &str, Option<&str>)> = s
            .edges
            .iter()
            .map(|e| {
                (
                    e.dependent.as_str(),
                    e.head.as_str(),
                    e.label.as_str(),
                    e.rule.as_ref().map(|r| r.name.as_str()),
                )
            })
            .collect();
        assert_eq!(
            edges,
            [
                ("1", "2", "nsubj", None),
                ("1", "4", "nsubj", Some("shared_subject")),
                ("2", "0", "root", None),
                ("3", "4", "cc", None),
                ("4", "2", "conj:and", Some("conj_label")),
                ("5", "6", "case", None),
                ("6", "4", "obl:in", Some("case_label")),
            ]
        );
        // The same edges as enhance writes.
        let (enhanced, _) = enhancer.enhance_str(COORDINATION).unwrap();
        assert!(
            enhanced.contains("\t2:nsubj|4:nsubj\t") && enhanced.contains("\t4:obl:in\t"),
            "{enhanced}"
        );
    }

    #[test]
    fn explain_reports_bad_input_with_its_line() {
        let enhancer = Enhancer::for_profile("en", None).unwrap();
        let text = format!("{COORDINATION}1\tA\ta\tX\t_\t_\t7\tdep\t_\t_\n\n");
        match enhancer.explain(&text) {
            Err(Error::Input { file, line, .. }) => {
                assert_eq!((file.as_str(), line), (STRING_NAME, 9))
            }
            other => panic!("expected an input error, got {other:?}"),
        }
    }
}
