//! The gold sample a profile is fitted to, and how a candidate profile scores on it: each
//! sentence enhanced by the candidate's compiled engine and scored by `crate::eval` against its
//! own gold graph, sentence by sentence, so that a search can re-score only some sentences.

use crate::conllu::input;
use crate::conllu::{BlockReader, RawBlock, Sentence};
use crate::engine::Engine;
use crate::error::Error;
use crate::eval::{self, EvalOptions, Metric, PhenomenonScores, Score};
use crate::pipeline::{OnError, Pipeline, PipelineOptions};
use std::path::Path;

/// The gold sentences, in input order.
pub struct Sample {
    pub sentences: Vec<Sentence>,
    /// Each sentence's block as the engine reads it, ending in one blank line.
    texts: Vec<String>,
    /// The files read, as given.
    pub files: Vec<String>,
}

impl Sample {
    /// Reads every file (`-` is stdin; gzip is read too). Each sentence must carry a gold
    /// enhanced graph (DEPS): one without is an input error at its line.
    pub fn read(paths: &[impl AsRef<Path>]) -> Result<Sample, Error> {
        let mut sample = Sample {
            sentences: Vec::new(),
            texts: Vec::new(),
            files: Vec::new(),
        };
        for path in paths {
            let path = path.as_ref();
            let file = input::display_name(path);
            let io = |error| Error::Io {
                file: file.clone(),
                error,
            };
            let mut reader = BlockReader::new(input::open(path).map_err(io)?);
            let mut block = RawBlock::default();
            while reader.read_block(&mut block).map_err(io)? {
                if block.is_blank() {
                    continue;
                }
                let line = block.first_line;
                let sentence = Sentence::parse(std::mem::take(&mut block)).map_err(|e| {
                    let (_, error) = *e;
                    Error::Input {
                        file: file.clone(),
                        line: error.line,
                        message: error.message,
                    }
                })?;
                let has_graph = sentence
                    .words
                    .iter()
                    .any(|w| sentence.column(w, crate::conllu::sentence::DEPS) != "_");
                if !has_graph {
                    return Err(Error::Input {
                        file: file.clone(),
                        line,
                        message:
                            "no enhanced graph (DEPS `_`): fit learns from gold enhanced graphs"
                                .to_string(),
                    });
                }
                sample.push(sentence);
            }
            sample.files.push(file);
        }
        if sample.sentences.is_empty() {
            return Err(Error::Rules(
                "fit: the gold files hold no sentence to learn from".to_string(),
            ));
        }
        Ok(sample)
    }

    fn push(&mut self, sentence: Sentence) {
        let mut text = sentence.text().trim_end_matches(['\n', '\r']).to_string();
        text.push_str("\n\n");
        self.texts.push(text);
        self.sentences.push(sentence);
    }

    pub fn len(&self) -> usize {
        self.sentences.len()
    }

    /// Words of the sample.
    pub fn words(&self) -> usize {
        self.sentences.iter().map(Sentence::len).sum()
    }

    /// The text of the sentences `indices`, in that order.
    fn text_of(&self, indices: &[usize]) -> String {
        let mut text = String::new();
        for &i in indices {
            text.push_str(&self.texts[i]);
        }
        text
    }

    /// `engine`'s output for the sentences `indices`.
    pub fn enhance(&self, engine: &Engine, indices: &[usize]) -> Result<String, Error> {
        let text = self.text_of(indices);
        let options = PipelineOptions {
            on_error: OnError::Fail,
            threads: 1,
            ..PipelineOptions::default()
        };
        let pipeline = Pipeline::new(engine, options)?;
        let mut out = Vec::with_capacity(text.len() + text.len() / 4);
        pipeline.run("<fit>", text.as_bytes(), &mut out, &mut |_| {})?;
        Ok(String::from_utf8(out).expect("enhanced CoNLL-U from a str is UTF-8"))
    }

    /// `engine`'s output for each sentence of `indices`, in that order (the pipeline copies
    /// every byte but DEPS, so each output block ends where its input block does).
    pub fn outputs(&self, engine: &Engine, indices: &[usize]) -> Result<Vec<String>, Error> {
        let text = self.enhance(engine, indices)?;
        let mut blocks = Vec::with_capacity(indices.len());
        let mut rest = text.as_str();
        while let Some(end) = rest.find("\n\n") {
            blocks.push(rest[..end + 2].to_string());
            rest = &rest[end + 2..];
        }
        debug_assert_eq!(blocks.len(), indices.len());
        Ok(blocks)
    }

    /// The ELAS counts of each sentence of `indices` given its system output (`outputs`, in the
    /// same order); with `phenomena`, their breakdown by phenomenon summed.
    pub fn score_outputs(
        &self,
        indices: &[usize],
        outputs: &[&str],
        phenomena: bool,
    ) -> Result<(Vec<Score>, Option<PhenomenonScores>), Error> {
        let gold = self.text_of(indices);
        let system: String = outputs.concat();
        let options = EvalOptions {
            phenomena,
            keep_units: true,
            ..EvalOptions::default()
        };
        let report = eval::evaluate_readers(
            "<gold>",
            gold.as_bytes(),
            "<fit>",
            system.as_bytes(),
            &options,
        )
        .map_err(|e| Error::Internal {
            file: "<fit>".to_string(),
            message: format!("scoring a candidate: {e}"),
        })?;
        let mut scores = vec![Score::default(); indices.len()];
        for unit in report.units() {
            scores[unit.first_sentence as usize].add(unit.counts[Metric::Elas.index()]);
        }
        Ok((scores, report.phenomena))
    }

    /// The ELAS counts of each sentence of `indices` under `engine`, in that order; with
    /// `phenomena`, their breakdown by phenomenon summed.
    pub fn score(
        &self,
        engine: &Engine,
        indices: &[usize],
        phenomena: bool,
    ) -> Result<(Vec<Score>, Option<PhenomenonScores>), Error> {
        let outputs = self.outputs(engine, indices)?;
        let outputs: Vec<&str> = outputs.iter().map(String::as_str).collect();
        self.score_outputs(indices, &outputs, phenomena)
    }
}

/// The sum of sentence scores.
pub fn total(scores: &[Score]) -> Score {
    let mut sum = Score::default();
    for s in scores {
        sum.add(*s);
    }
    sum
}

/// Wrong edges of a score: missing gold edges plus extra system edges (what a search lowers).
pub fn errors(score: &Score) -> u64 {
    score.gold + score.system - 2 * score.correct
}
