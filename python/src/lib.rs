//! `eudify._eudify`: the native half of the Python package. The Python half
//! (`python/eudify/__init__.py`) wraps it with dataclasses and docstrings; everything here
//! goes through the library's facade ([`eudify::Enhancer`]) and its eval and validate APIs,
//! and releases the GIL while it works.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;

mod spacy;

create_exception!(
    eudify,
    InputError,
    PyValueError,
    "Input that is not valid CoNLL-U: `.file` and `.line` (from 1) tell where."
);
create_exception!(
    eudify,
    RulesError,
    PyValueError,
    "Rules or a profile that do not load; the message holds every diagnostic."
);
create_exception!(
    eudify,
    NoProfileError,
    PyValueError,
    "No language was given and the input does not show which profile it needs: give one."
);

/// An input error with `.file`, `.line` and `.message` set on the exception object.
fn input_error(py: Python<'_>, file: &str, line: usize, message: &str) -> PyErr {
    let error = InputError::new_err(format!("{file}:{line}: {message}"));
    let value = error.value(py);
    // Setting attributes on a fresh exception object cannot fail.
    let _ = value.setattr("file", file);
    let _ = value.setattr("line", line);
    let _ = value.setattr("message", message);
    error
}

fn to_py(py: Python<'_>, error: eudify::Error) -> PyErr {
    match error {
        eudify::Error::Input {
            file,
            line,
            message,
        } => input_error(py, &file, line, &message),
        eudify::Error::Rules(message) => RulesError::new_err(message),
        eudify::Error::Io { file, error } => os_error(&file, error),
        eudify::Error::Output(error) => PyOSError::new_err(format!("writing output: {error}")),
        other @ eudify::Error::NoSuchSentence { .. } => PyValueError::new_err(other.to_string()),
        other @ eudify::Error::NoProfile { .. } => NoProfileError::new_err(other.to_string()),
        other @ (eudify::Error::Internal { .. } | eudify::Error::Threads(_)) => {
            PyRuntimeError::new_err(other.to_string())
        }
    }
}

/// An `OSError` as Python raises one for a file: with the system's error number, `OSError`
/// picks the subclass (`FileNotFoundError`…) and reads `[Errno 2] No such file or directory:
/// 'FILE'`, `.filename` set. An error without a number (invalid data, a temporary file's) is the
/// subclass of its kind with the message `FILE: error` (a `filename` beside no number would
/// read `[Errno None] None: 'FILE'`).
fn os_error(file: &str, error: std::io::Error) -> PyErr {
    match error.raw_os_error() {
        Some(errno) => {
            let text = error.to_string();
            let reason = text
                .strip_suffix(&format!(" (os error {errno})"))
                .unwrap_or(&text)
                .to_string();
            PyOSError::new_err((errno, reason, file.to_string()))
        }
        None => PyErr::from(std::io::Error::new(
            error.kind(),
            format!("{file}: {error}"),
        )),
    }
}

/// The worker threads for `threads=None|N`: as `eudify enhance --threads`, never more than the
/// cores.
fn threads(asked: Option<usize>) -> usize {
    eudify::worker_threads(asked).0
}

/// What one run did (`eudify.Report` in `eudify/__init__.py`), as a dict: `file` names the
/// input in the runaways' positions.
fn report_dict<'py>(
    py: Python<'py>,
    file: &str,
    report: &eudify::Report,
) -> PyResult<Bound<'py, PyDict>> {
    let summary = &report.summary;
    let dict = PyDict::new(py);
    dict.set_item("sentences", summary.sentences)?;
    dict.set_item("words", summary.words)?;
    dict.set_item("without_lemma", summary.without_lemma)?;
    let repairs = PyDict::new(py);
    for (kind, n) in summary.repairs.by_kind() {
        repairs.set_item(kind, n)?;
    }
    dict.set_item("repairs", repairs)?;
    let runaways = PyList::empty(py);
    for runaway in &report.runaways {
        let item = PyDict::new(py);
        item.set_item("file", file)?;
        item.set_item("line", runaway.line)?;
        item.set_item("sent_id", &runaway.sent_id)?;
        let rule = &runaway.rule;
        item.set_item("rule", &rule.name)?;
        item.set_item("rule_file", &rule.file)?;
        item.set_item("rule_line", rule.line)?;
        item.set_item("phase", &rule.phase)?;
        item.set_item("message", &runaway.message)?;
        runaways.append(item)?;
    }
    dict.set_item("runaways", runaways)?;
    dict.set_item("summary", summary.report_line())?;
    Ok(dict)
}

/// A language profile's rules, compiled. Immutable, so one object serves any number of threads.
#[pyclass(frozen, module = "eudify._eudify")]
struct Enhancer {
    inner: eudify::Enhancer,
}

#[pymethods]
impl Enhancer {
    #[new]
    #[pyo3(signature = (lang, rules = None))]
    fn new(py: Python<'_>, lang: &str, rules: Option<PathBuf>) -> PyResult<Self> {
        let lang = lang.to_string();
        let inner = py
            .allow_threads(|| eudify::Enhancer::for_profile(&lang, rules.as_deref()))
            .map_err(|e| to_py(py, e))?;
        Ok(Enhancer { inner })
    }

    #[getter]
    fn profile(&self) -> &str {
        self.inner.profile()
    }

    #[getter]
    fn warning(&self) -> Option<&str> {
        self.inner.warning()
    }

    /// The enhanced text and the report, as a dict.
    fn enhance<'py>(
        &self,
        py: Python<'py>,
        conllu: &str,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        // Copied so the GIL can go: `conllu` borrows a Python object's buffer.
        let text = conllu.to_string();
        let (out, report) = py
            .allow_threads(|| self.inner.enhance_str_with_report(&text))
            .map_err(|e| to_py(py, e))?;
        Ok((out, report_dict(py, eudify::STRING_NAME, &report)?))
    }

    /// The spaCy component's call (`eudify/spacy_component.py`): a Doc as its token table
    /// (`Doc.to_array` of `_ATTRS`, as bytes) and its sentences' token ranges, with its
    /// `StringStore` and the cache of strings. Returns the CoNLL-U enhanced, the report, the
    /// `Doc.user_data` entries of the tokens' `enhanced_deps`, and the empty nodes.
    #[allow(clippy::type_complexity)]
    fn enhance_spacy<'py>(
        &self,
        py: Python<'py>,
        table: &[u8],
        sents: Vec<(usize, usize)>,
        store: &Bound<'py, PyAny>,
        cache: &spacy::SpacyStrings,
    ) -> PyResult<(
        String,
        Bound<'py, PyDict>,
        Bound<'py, PyDict>,
        Bound<'py, PyDict>,
    )> {
        let mut doc = spacy::DocArrays::new(table, sents, store, cache)?;
        let (conllu, written) = doc.conllu();
        doc.release_strings();
        let (enhanced, report) = match conllu.is_empty() {
            true => (String::new(), eudify::Report::default()),
            false => py
                .allow_threads(|| self.inner.enhance_str_with_report(&conllu))
                .map_err(|e| to_py(py, e))?,
        };
        let (values, empty) = spacy::read_enhanced(py, &doc, &enhanced, &written)?;
        Ok((
            enhanced,
            report_dict(py, eudify::STRING_NAME, &report)?,
            values,
            empty,
        ))
    }

    /// Per sentence, a dict of what each rule application did and where each edge comes from
    /// (see `Enhancer.explain` in `eudify/__init__.py`).
    fn explain<'py>(&self, py: Python<'py>, conllu: &str) -> PyResult<Bound<'py, PyList>> {
        let text = conllu.to_string();
        let sentences = py
            .allow_threads(|| self.inner.explain(&text))
            .map_err(|e| to_py(py, e))?;
        let list = PyList::empty(py);
        for sentence in &sentences {
            list.append(explanation_dict(py, sentence)?)?;
        }
        Ok(list)
    }

    #[pyo3(signature = (src, dst, threads = None))]
    fn enhance_file<'py>(
        &self,
        py: Python<'py>,
        src: PathBuf,
        dst: PathBuf,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let n = self::threads(threads);
        let report = py
            .allow_threads(|| self.inner.enhance_file_with_report(&src, &dst, n))
            .map_err(|e| to_py(py, e))?;
        report_dict(py, &eudify::files::display_name(&src), &report)
    }

    /// The drawing of `conllu` enhanced with these rules, each edge with the rule behind it
    /// (`eudify.Enhanced._repr_html_`): `eudify view --lang`'s sentences as an HTML fragment.
    fn view_html(&self, py: Python<'_>, conllu: &str) -> PyResult<String> {
        let text = conllu.to_string();
        py.allow_threads(|| {
            eudify::View::build(
                Some(&self.inner),
                eudify::STRING_NAME,
                text.as_bytes(),
                None,
                None,
            )
            .map(|view| view.sentences_html())
        })
        .map_err(|e| to_py(py, e))
    }
}

/// The drawing of CoNLL-U with its own DEPS (`eudify.render`): `eudify view`'s sentences, without
/// `--lang`, as an HTML fragment.
#[pyfunction]
fn view_html(py: Python<'_>, conllu: &str) -> PyResult<String> {
    let text = conllu.to_string();
    py.allow_threads(|| {
        eudify::View::build(None, eudify::STRING_NAME, text.as_bytes(), None, None)
            .map(|view| view.sentences_html())
    })
    .map_err(|e| to_py(py, e))
}

/// `{"sent_id", "line", "applications", "edges", "runaway"}`: one sentence of `explain`.
fn explanation_dict<'py>(
    py: Python<'py>,
    sentence: &eudify::Explanation,
) -> PyResult<Bound<'py, PyDict>> {
    let edge = |e: &eudify::EdgeChange| -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("dependent", &e.dependent)?;
        dict.set_item("head", &e.head)?;
        dict.set_item("label", &e.label)?;
        if let Some(old) = &e.old_label {
            dict.set_item("old_label", old)?;
        }
        Ok(dict)
    };
    let edges = |list: &[eudify::EdgeChange]| list.iter().map(edge).collect::<PyResult<Vec<_>>>();
    let rule_items = |dict: &Bound<'py, PyDict>, rule: Option<&eudify::RuleRef>| -> PyResult<()> {
        dict.set_item("rule", rule.map(|r| &r.name))?;
        dict.set_item("file", rule.map(|r| &r.file))?;
        dict.set_item("line", rule.map(|r| r.line))?;
        dict.set_item("phase", rule.map(|r| &r.phase))
    };
    let applications = PyList::empty(py);
    for a in &sentence.applications {
        let dict = PyDict::new(py);
        rule_items(&dict, Some(&a.rule))?;
        dict.set_item("added", edges(&a.added)?)?;
        dict.set_item("removed", edges(&a.removed)?)?;
        dict.set_item("relabelled", edges(&a.relabelled)?)?;
        dict.set_item("empty_nodes", &a.empty_nodes)?;
        applications.append(dict)?;
    }
    let output = PyList::empty(py);
    for e in &sentence.edges {
        let dict = PyDict::new(py);
        dict.set_item("dependent", &e.dependent)?;
        dict.set_item("head", &e.head)?;
        dict.set_item("label", &e.label)?;
        rule_items(&dict, e.rule.as_ref())?;
        output.append(dict)?;
    }
    let dict = PyDict::new(py);
    dict.set_item("sent_id", &sentence.sent_id)?;
    dict.set_item("line", sentence.line)?;
    dict.set_item("applications", applications)?;
    dict.set_item("edges", output)?;
    dict.set_item("runaway", &sentence.runaway)?;
    Ok(dict)
}

/// The spaCy component's CoNLL-U of a Doc given as [`Enhancer::enhance_spacy`] takes it
/// (`eudify.spacy_component.doc_to_conllu`).
#[pyfunction]
fn spacy_conllu(
    table: &[u8],
    sents: Vec<(usize, usize)>,
    store: &Bound<'_, PyAny>,
    cache: &spacy::SpacyStrings,
) -> PyResult<String> {
    Ok(spacy::DocArrays::new(table, sents, store, cache)?
        .conllu()
        .0)
}

/// (file, line, message) of each problem `validate` finds.
type Problems = Vec<(String, usize, String)>;

/// Validates CoNLL-U: a path, or the text itself (`name` names it in the problems); `basic`:
/// the basic layer's format too, as `eudify validate` checks it. Returns (file, line, message)
/// triples and the sentence count.
#[pyfunction]
#[pyo3(signature = (path = None, text = None, name = "<string>", basic = true))]
fn validate(
    py: Python<'_>,
    path: Option<PathBuf>,
    text: Option<String>,
    name: &str,
    basic: bool,
) -> PyResult<(Problems, usize)> {
    let options = eudify::validate::Options {
        basic_format: basic,
        ..Default::default()
    };
    let report = py
        .allow_threads(|| match (&path, &text) {
            (Some(path), _) => eudify::validate::validate_file_with(path, &options),
            (None, text) => {
                let text = text.as_deref().unwrap_or("");
                eudify::validate::validate_reader_with(name, text.as_bytes(), &options)
            }
        })
        .map_err(|e| match &path {
            Some(p) => os_error(&p.display().to_string(), e),
            None => PyErr::from(e),
        })?;
    let problems = report
        .diagnostics
        .iter()
        .map(|d| (report.name.clone(), d.line, d.message.clone()))
        .collect();
    Ok((problems, report.sentences))
}

/// `eudify fit GOLD... [--base] [--lang] [--name] [--folds] [-o DIR]`: the fitted profile's
/// name, profile text, lexicon text (or None) and report; written to `output` when given.
#[pyfunction]
#[pyo3(signature = (gold, base = None, lang = None, name = None, folds = 0, output = None))]
fn fit(
    py: Python<'_>,
    gold: Vec<PathBuf>,
    base: Option<String>,
    lang: Option<String>,
    name: Option<String>,
    folds: usize,
    output: Option<PathBuf>,
) -> PyResult<(String, String, Option<String>, String)> {
    let options = eudify::fit::FitOptions {
        base,
        lang,
        name,
        folds,
    };
    let fitted = py
        .allow_threads(|| {
            let fitted = eudify::fit::fit(&gold, &options)?;
            if let Some(dir) = &output {
                fitted.write(dir)?;
            }
            Ok(fitted)
        })
        .map_err(|e| to_py(py, e))?;
    Ok((
        fitted.name,
        fitted.profile_text,
        fitted.lexicon_text,
        fitted.report,
    ))
}

/// `eudify eval --json GOLD SYSTEM [--phenomena]`, as a JSON string.
#[pyfunction]
#[pyo3(signature = (gold, system, phenomena = false))]
fn evaluate(py: Python<'_>, gold: PathBuf, system: PathBuf, phenomena: bool) -> PyResult<String> {
    let options = eudify::eval::EvalOptions {
        phenomena,
        ..Default::default()
    };
    let report = py.allow_threads(|| eudify::eval::evaluate_files(&gold, &system, &options));
    match report {
        Ok(report) => {
            serde_json::to_string(&report).map_err(|e| PyErr::from(std::io::Error::other(e)))
        }
        Err(
            eudify::eval::EvalError::Parse {
                file,
                line,
                message,
            }
            | eudify::eval::EvalError::Mismatch {
                file,
                line,
                message,
            },
        ) => Err(input_error(py, &file, line, &message)),
        Err(eudify::eval::EvalError::Io { file, error }) => Err(os_error(&file, error)),
    }
}

/// A search of one input for a pattern (`eudify grep`), read as it is iterated: each step
/// searches on to the next sentence with matches (without the GIL) and gives its matches, as
/// dicts: `sent_id`, `line`, `text` (the words, matched ones marked `[form/VAR]`), `nodes`
/// (variable → dict of `id`, `line`, `form`, `lemma`, `upos`, `xpos`, `feats`, `deprel`,
/// `misc`), `edges` (edge variable → `head`, `dep`, `label`). `counts()`: what was read and
/// found so far (`sentences_read`, `sentences_matched`, `matches`, `runaways`, `cut_short`).
/// With `lang`, the graph that profile computes is searched instead of the input's DEPS.
#[pyclass(module = "eudify._eudify")]
struct Grep {
    // A Mutex because a Python object must be shareable between threads; one search runs at a
    // time anyway.
    search: std::sync::Mutex<FileSearch>,
}

type FileSearch = eudify::Search<std::sync::Arc<eudify::Pattern>, Box<dyn std::io::BufRead + Send>>;

impl Grep {
    fn lock(&self) -> std::sync::MutexGuard<'_, FileSearch> {
        // After a panic (raised in Python as a PanicException) the search goes on from the
        // sentence after the one it was searching.
        self.search
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[pymethods]
impl Grep {
    #[new]
    #[pyo3(signature = (pattern, path = None, text = None, lang = None, rules = None))]
    fn new(
        py: Python<'_>,
        pattern: &str,
        path: Option<PathBuf>,
        text: Option<String>,
        lang: Option<String>,
        rules: Option<PathBuf>,
    ) -> PyResult<Self> {
        let compiled = match &lang {
            Some(code) => {
                eudify::Pattern::for_profile(pattern, eudify::PATTERN_NAME, code, rules.as_deref())
            }
            None => eudify::Pattern::new(pattern),
        }
        .map_err(|e| to_py(py, e))?;
        let (name, input): (String, Box<dyn std::io::BufRead + Send>) = match &path {
            Some(path) => {
                let name = eudify::files::display_name(path);
                let reader = eudify::files::open(path).map_err(|error| os_error(&name, error))?;
                (name, Box::new(reader))
            }
            None => (
                eudify::STRING_NAME.to_string(),
                Box::new(std::io::Cursor::new(text.unwrap_or_default().into_bytes())),
            ),
        };
        Ok(Grep {
            search: std::sync::Mutex::new(eudify::Search::new(
                std::sync::Arc::new(compiled),
                &name,
                input,
            )),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The matches of the next sentence with any, as a list of dicts; the end of the input
    /// stops the iteration.
    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        let Some(sentence) = py
            .allow_threads(|| self.lock().next_matches())
            .map_err(|e| to_py(py, e))?
        else {
            return Ok(None);
        };
        let list = PyList::empty(py);
        for (i, found) in sentence.matches.iter().enumerate() {
            let nodes = PyDict::new(py);
            for n in &found.nodes {
                let node = PyDict::new(py);
                for (key, value) in [
                    ("id", &n.id),
                    ("form", &n.form),
                    ("lemma", &n.lemma),
                    ("upos", &n.upos),
                    ("xpos", &n.xpos),
                    ("feats", &n.feats),
                    ("deprel", &n.deprel),
                    ("misc", &n.misc),
                ] {
                    node.set_item(key, value)?;
                }
                node.set_item("line", n.line)?;
                nodes.set_item(&n.variable, node)?;
            }
            let edges = PyDict::new(py);
            for e in &found.edges {
                let edge = PyDict::new(py);
                edge.set_item("head", &e.head)?;
                edge.set_item("dep", &e.dependent)?;
                edge.set_item("label", &e.label)?;
                edges.set_item(&e.variable, edge)?;
            }
            let dict = PyDict::new(py);
            dict.set_item("sent_id", &sentence.sent_id)?;
            dict.set_item(
                "line",
                found.nodes.first().map_or(sentence.line, |n| n.line),
            )?;
            dict.set_item("text", sentence.marked_text(i))?;
            dict.set_item("nodes", nodes)?;
            dict.set_item("edges", edges)?;
            list.append(dict)?;
        }
        Ok(Some(list))
    }

    /// What the search has read and found so far.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let search = self.lock();
        let counts = search.counts();
        let totals = PyDict::new(py);
        totals.set_item("sentences_read", counts.sentences_read)?;
        totals.set_item("sentences_matched", counts.sentences_matched)?;
        totals.set_item("matches", counts.matches)?;
        totals.set_item("runaways", counts.runaways)?;
        totals.set_item("cut_short", counts.cut_short)?;
        Ok(totals)
    }
}

/// The profiles as (name, description, extends) triples, as `eudify profiles` lists them.
#[pyfunction]
#[pyo3(signature = (rules = None))]
fn profiles(
    py: Python<'_>,
    rules: Option<PathBuf>,
) -> PyResult<Vec<(String, String, Option<String>)>> {
    let list = eudify::profiles(rules.as_deref()).map_err(|e| to_py(py, e))?;
    Ok(list
        .into_iter()
        .map(|p| (p.name, p.description, p.extends))
        .collect())
}

/// The profile the input shows (`eudify::detect_profile`), from a file (`path`, gzip or not;
/// not stdin) or a text (`text`, named `name` in messages): (code to load, profile, what to warn:
/// `profile cs (why)`). Weak evidence raises `NoProfileError`.
#[pyfunction]
#[pyo3(signature = (name, text = None, path = None, rules = None))]
fn detect_profile(
    py: Python<'_>,
    name: &str,
    text: Option<&str>,
    path: Option<PathBuf>,
    rules: Option<PathBuf>,
) -> PyResult<(String, String, String)> {
    let detection = py
        .allow_threads(|| match (&path, text) {
            (Some(path), _) => eudify::detect_profile_for_file(path, rules.as_deref()),
            (None, text) => eudify::detect_profile(name, text.unwrap_or(""), rules.as_deref()),
        })
        .map_err(|e| to_py(py, e))?;
    let said = detection.to_string();
    Ok((detection.code, detection.profile, said))
}

/// The `eudify` command (`sys.argv` as `argv`), run in this process as the binary runs: it
/// writes to the process's stdout and stderr and returns the exit code.
#[pyfunction]
fn run_cli(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> u8 {
    py.allow_threads(|| eudify_cli::run(argv))
}

#[pymodule]
fn _eudify(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Enhancer>()?;
    m.add_class::<spacy::SpacyStrings>()?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(fit, m)?)?;
    m.add_function(wrap_pyfunction!(profiles, m)?)?;
    m.add_class::<Grep>()?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(detect_profile, m)?)?;
    m.add_function(wrap_pyfunction!(spacy_conllu, m)?)?;
    m.add_function(wrap_pyfunction!(view_html, m)?)?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add("RulesError", m.py().get_type::<RulesError>())?;
    m.add("NoProfileError", m.py().get_type::<NoProfileError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
