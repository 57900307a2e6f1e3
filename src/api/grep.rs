//! Searching treebanks with the rule language (`eudify grep`, Python's `eudify.grep`): a
//! [`Pattern`] is a rule's `match` block with its `without` blocks, searched over the enhanced
//! graph a file's DEPS hold (its empty nodes are nodes), or over the graph the rules compute from
//! the basic trees ([`Pattern::for_profile`]). Basic edges (`-[..]->`) are the basic tree's in
//! both cases.
//!
//! ```
//! let pattern = eudify::Pattern::new("match { H -[nsubj]-> S; H =[conj]=> C; }")?;
//! let text = "1\tPeople\tpeople\tNOUN\t_\t_\t2\tnsubj\t2:nsubj|4:nsubj\t_\n\
//!             2\tsing\tsing\tVERB\t_\t_\t0\troot\t0:root\t_\n\
//!             3\tand\tand\tCCONJ\t_\t_\t4\tcc\t4:cc\t_\n\
//!             4\tdance\tdance\tVERB\t_\t_\t2\tconj\t2:conj\t_\n\n";
//! let found = pattern.search_str(text)?;
//! assert_eq!(found.counts.matches, 1);
//! assert_eq!(found.sentences[0].matches[0].node("C").map(|n| n.form.as_str()), Some("dance"));
//! # Ok::<(), eudify::Error>(())
//! ```

use super::{rules::rule_source, Enhancer, STRING_NAME};
use crate::conllu::sentence::{DEPREL, FEATS, FORM, LEMMA, MISC, UPOS, XPOS};
use crate::conllu::{BlockReader, NodeId, RawBlock, Sentence};
use crate::engine::binding::{Binding, EdgeRefId};
use crate::engine::query::{Query, QueryWorkspace};
use crate::error::Error;
use crate::graph::{feature_value, GraphBuffers, Node, SentenceGraph};
use crate::rules::query::check_query;
use petgraph::stable_graph::NodeIndex;
use rustc_hash::FxHashSet;
use std::io::BufRead;
use std::path::Path;

/// A match as bound: its nodes and named edges (a search may find one twice, by parallel edges
/// the pattern does not name).
type MatchKey = (Vec<Option<NodeIndex>>, Vec<Option<EdgeRefId>>);

/// The name a pattern given as text is reported under in diagnostics.
pub const PATTERN_NAME: &str = "<pattern>";

/// A search pattern, checked and compiled: `match { … }` and optional `without { … }` blocks,
/// as in a rule. It is `Send + Sync`: one pattern can search many files at once.
pub struct Pattern {
    query: Query,
    /// Names of the match block's node variables, in binding order.
    variables: Vec<String>,
    /// Names of its edge variables (`e: H -[nsubj]-> S`).
    edge_variables: Vec<String>,
    /// Search the graph these rules compute instead of the file's DEPS.
    enhancer: Option<Enhancer>,
}

/// One node a match binds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchedNode {
    /// The pattern's variable.
    pub variable: String,
    /// Its CoNLL-U id (`5`, `8.1`; `0` for the root).
    pub id: String,
    /// Its line in the input (the sentence's first line for the root, or for an empty node
    /// the rules made).
    pub line: usize,
    /// FORM, LEMMA, UPOS, XPOS, FEATS, DEPREL and MISC as the input has them (`_` for the root).
    pub form: String,
    #[allow(missing_docs)]
    pub lemma: String,
    #[allow(missing_docs)]
    pub upos: String,
    #[allow(missing_docs)]
    pub xpos: String,
    #[allow(missing_docs)]
    pub feats: String,
    #[allow(missing_docs)]
    pub deprel: String,
    #[allow(missing_docs)]
    pub misc: String,
}

/// One named edge a match binds (`e: H -[nsubj]-> S`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchedEdge {
    /// The pattern's edge variable.
    pub variable: String,
    /// Ids of its two ends and its label.
    pub head: String,
    #[allow(missing_docs)]
    pub dependent: String,
    #[allow(missing_docs)]
    pub label: String,
}

/// One match: the nodes and named edges it binds, in the pattern's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    #[allow(missing_docs)]
    pub nodes: Vec<MatchedNode>,
    #[allow(missing_docs)]
    pub edges: Vec<MatchedEdge>,
}

impl Match {
    /// The node bound to `variable`.
    pub fn node(&self, variable: &str) -> Option<&MatchedNode> {
        self.nodes.iter().find(|n| n.variable == variable)
    }

    /// A value of the match, as Grew-match clusters by it: `X.form`, `X.lemma`, `X.upos`,
    /// `X.xpos`, `X.deprel`, `X.id`, a feature `X.Case` (or MISC attribute), or an edge's
    /// `e.label`. `None` when the variable is no variable of the match or the node lacks the
    /// feature; an error names what is not understood.
    pub fn value(&self, key: &str) -> Result<Option<String>, String> {
        let (variable, field) = key.split_once('.').ok_or_else(|| {
            format!("`{key}`: expected VARIABLE.FIELD, e.g. X.lemma, X.Case or e.label")
        })?;
        if let Some(edge) = self.edges.iter().find(|e| e.variable == variable) {
            return match field {
                "label" => Ok(Some(edge.label.clone())),
                "head" => Ok(Some(edge.head.clone())),
                "dep" | "dependent" => Ok(Some(edge.dependent.clone())),
                _ => Err(format!("`{key}`: an edge has `label`, `head` and `dep`")),
            };
        }
        let node = self.node(variable).ok_or_else(|| {
            format!("`{key}`: `{variable}` is no variable of the pattern's match block")
        })?;
        Ok(match field {
            "form" => Some(node.form.clone()),
            "lemma" => Some(node.lemma.clone()),
            "upos" => Some(node.upos.clone()),
            "xpos" => Some(node.xpos.clone()),
            "deprel" => Some(node.deprel.clone()),
            "id" => Some(node.id.clone()),
            feature => feature_value(&node.feats, feature)
                .or_else(|| feature_value(&node.misc, feature))
                .map(str::to_string),
        })
    }
}

/// A sentence with matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentenceMatches {
    /// The sentence's `# sent_id`, if it has one.
    pub sent_id: Option<String>,
    /// Its first line in the input (its first comment, or its first word).
    pub line: usize,
    /// Its words, each as (id, form, whether a space follows), with its empty nodes where
    /// they stand: what a display marks the matched nodes in.
    pub tokens: Vec<(String, String, bool)>,
    /// The matches, ordered by the positions of their nodes.
    pub matches: Vec<Match>,
    /// The sentence as the input has it, every line (for `--conllu`).
    pub conllu: String,
}

impl SentenceMatches {
    /// The sentence's words as text, each matched node marked `[form/VARIABLE]` (empty nodes
    /// appear only when matched, as `[E8.1/VARIABLE]`); `which` picks the match.
    pub fn marked_text(&self, which: usize) -> String {
        let found = &self.matches[which];
        let mut out = String::new();
        for (id, form, space) in &self.tokens {
            let variable = found
                .nodes
                .iter()
                .find(|n| &n.id == id)
                .map(|n| n.variable.as_str());
            let empty = id.contains('.');
            match variable {
                Some(v) if empty => out.push_str(&format!("[E{id}/{v}]")),
                Some(v) => out.push_str(&format!("[{form}/{v}]")),
                None if empty => continue,
                None => out.push_str(form),
            }
            if *space {
                out.push(' ');
            }
        }
        out.truncate(out.trim_end().len());
        out
    }
}

/// What a search found, and in how much.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchCounts {
    /// Sentences read.
    pub sentences_read: usize,
    /// Sentences with at least one match.
    pub sentences_matched: usize,
    /// Matches in all.
    pub matches: usize,
    /// Sentences whose rules ran away ([`Pattern::for_profile`] only): searched in their basic
    /// copy, as `enhance` writes them.
    pub runaways: usize,
    /// Sentences searched only in part: the pattern's search spent the work budget the rules
    /// have per sentence (a pattern whose cost grows as a high power of the sentence, which
    /// `check` warns about); the matches found in them are reported.
    pub cut_short: usize,
}

/// [`Pattern::search_str`]'s result: every sentence with a match, and the counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    #[allow(missing_docs)]
    pub sentences: Vec<SentenceMatches>,
    /// What was read and found (`counts.matches`: matches in all).
    pub counts: SearchCounts,
}

impl Pattern {
    /// A pattern searching files' own enhanced graphs (their DEPS and empty nodes). `@profile`
    /// lists take their default values and every lexicon's lists are known. A mistake is an
    /// [`Error::Rules`] with `check`'s caret diagnostics, naming the pattern `<pattern>`.
    pub fn new(text: &str) -> Result<Pattern, Error> {
        Self::build(text, PATTERN_NAME, None, None)
    }

    /// [`Pattern::new`] with the pattern's name in diagnostics (a file it was read from).
    pub fn named(text: &str, name: &str) -> Result<Pattern, Error> {
        Self::build(text, name, None, None)
    }

    /// A pattern searching the graph the profile for `code` computes from each sentence's
    /// basic tree (the input's DEPS are ignored), resolved as [`Enhancer::for_profile`]
    /// resolves it; `@profile` lists and lexicons are that profile's.
    pub fn for_profile(
        text: &str,
        name: &str,
        code: &str,
        rules: Option<&Path>,
    ) -> Result<Pattern, Error> {
        let enhancer = Enhancer::for_profile(code, rules)?;
        let profile = enhancer.profile().to_string();
        Self::build(text, name, Some(enhancer), Some((&profile, rules)))
    }

    fn build(
        text: &str,
        name: &str,
        enhancer: Option<Enhancer>,
        profile: Option<(&str, Option<&Path>)>,
    ) -> Result<Pattern, Error> {
        let (profile, rules) = profile.unzip();
        let source = rule_source(rules.flatten())?;
        let checked = check_query(text, name, &source, profile)
            .map_err(|e| Error::Rules(e.render().trim_end().to_string()))?;
        let query = Query::new(&checked.rule, checked.form_lemmas);
        let variables = query.rule().vars[..query.match_vars()]
            .iter()
            .map(|v| v.name.clone())
            .collect();
        let edge_variables = query
            .rule()
            .edge_vars
            .iter()
            .map(|e| e.name.clone())
            .collect();
        Ok(Pattern {
            query,
            variables,
            edge_variables,
            enhancer,
        })
    }

    /// The enhancer behind [`Pattern::for_profile`]: its resolved profile and any fallback
    /// warning.
    pub fn enhancer(&self) -> Option<&Enhancer> {
        self.enhancer.as_ref()
    }

    /// The match block's node variables, in the order matches list them.
    pub fn variables(&self) -> &[String] {
        &self.variables
    }

    /// The pattern's edge variables.
    pub fn edge_variables(&self) -> &[String] {
        &self.edge_variables
    }

    /// Every match in CoNLL-U text. Errors name the input `<string>`.
    pub fn search_str(&self, conllu: &str) -> Result<SearchResult, Error> {
        let mut result = SearchResult::default();
        result.counts = self.search_each(STRING_NAME, conllu.as_bytes(), &mut |sentence| {
            result.sentences.push(sentence);
            Ok(true)
        })?;
        Ok(result)
    }

    /// Searches everything `input` gives, one sentence at a time: `each` receives each
    /// sentence with matches, in input order, and returns whether to go on (or an error to stop
    /// with). `file` names the input in errors: a sentence that is not valid CoNLL-U (DEPS
    /// included, when the file's graph is searched) is an [`Error::Input`] at its line.
    pub fn search_each(
        &self,
        file: &str,
        input: impl BufRead,
        each: &mut dyn FnMut(SentenceMatches) -> Result<bool, Error>,
    ) -> Result<SearchCounts, Error> {
        let mut search = Search::new(self, file, input);
        while let Some(sentence) = search.next_matches()? {
            if !each(sentence)? {
                break;
            }
        }
        Ok(search.counts)
    }

    /// The matches `found` in `graph`'s sentence, as a client sees them.
    fn describe(&self, graph: &SentenceGraph, found: &[Binding]) -> SentenceMatches {
        let sentence = graph.sentence;
        let ids: rustc_hash::FxHashMap<NodeIndex, NodeId> =
            graph.output_ids().into_iter().collect();
        let id_of = |node: NodeIndex| ids.get(&node).map_or_else(String::new, NodeId::to_string);
        let line_of = |node: NodeIndex| match graph.node(node) {
            Node::Word(n) => sentence.line_of(sentence.word(n)),
            Node::Given(i) => sentence.line_of(&sentence.empty_nodes[i as usize]),
            Node::Root | Node::Empty { .. } => sentence.first_line,
        };
        let mut matches: Vec<(Vec<(u32, u32)>, Match)> = found
            .iter()
            .map(|binding| {
                let nodes: Vec<NodeIndex> = binding.nodes[..self.variables.len()]
                    .iter()
                    .map(|n| n.expect("a match binds every match variable"))
                    .collect();
                let order = nodes.iter().map(|&n| graph.position(n)).collect();
                let node = |(variable, &index): (&String, &NodeIndex)| MatchedNode {
                    variable: variable.clone(),
                    id: id_of(index),
                    line: line_of(index),
                    form: graph.column(index, FORM).to_string(),
                    lemma: graph.column(index, LEMMA).to_string(),
                    upos: graph.column(index, UPOS).to_string(),
                    xpos: graph.column(index, XPOS).to_string(),
                    feats: graph.column(index, FEATS).to_string(),
                    deprel: graph.column(index, DEPREL).to_string(),
                    misc: graph.column(index, MISC).to_string(),
                };
                let edges = self
                    .edge_variables
                    .iter()
                    .enumerate()
                    .filter_map(|(e, variable)| {
                        let (head, dependent) = match binding.edges.get(e).copied().flatten()? {
                            EdgeRefId::Basic(n) => (
                                NodeId::word(graph.basic_head(n)).to_string(),
                                NodeId::word(n).to_string(),
                            ),
                            EdgeRefId::Enhanced(edge) => {
                                let (head, dependent, _) = graph.edge(edge)?;
                                (id_of(head), id_of(dependent))
                            }
                        };
                        Some(MatchedEdge {
                            variable: variable.clone(),
                            head,
                            dependent,
                            label: binding.label(graph, e)?.to_string(),
                        })
                    })
                    .collect();
                let nodes = self.variables.iter().zip(&nodes).map(node).collect();
                (order, Match { nodes, edges })
            })
            .collect();
        matches.sort_by(|a, b| a.0.cmp(&b.0));
        let tokens = sentence
            .tokens_in_order()
            .map(|t| {
                let spaced = feature_value(sentence.column(t, MISC), "SpaceAfter") != Some("No");
                (
                    t.id.to_string(),
                    sentence.column(t, FORM).to_string(),
                    spaced,
                )
            })
            .collect();
        SentenceMatches {
            sent_id: sentence.comment("sent_id").map(str::to_string),
            line: sentence.first_line,
            tokens,
            matches: matches.into_iter().map(|(_, m)| m).collect(),
            conllu: sentence.text().to_string(),
        }
    }
}

/// A search in progress over one input, pulled a sentence with matches at a time (what
/// [`Pattern::search_each`] runs; a client that iterates lazily, as Python's `eudify.grep`
/// does, holds one). `P` is the pattern or something that derefs to it (`&Pattern`,
/// `Arc<Pattern>`).
pub struct Search<P, R> {
    pattern: P,
    file: String,
    reader: BlockReader<R>,
    block: RawBlock,
    sentence: Sentence,
    buffers: GraphBuffers,
    workspace: QueryWorkspace,
    seen: FxHashSet<MatchKey>,
    found: Vec<Binding>,
    counts: SearchCounts,
}

impl<P: std::ops::Deref<Target = Pattern>, R: BufRead> Search<P, R> {
    /// A search of `input` (named `file` in errors) for `pattern`.
    pub fn new(pattern: P, file: &str, input: R) -> Self {
        Search {
            pattern,
            file: file.to_string(),
            reader: BlockReader::new(input),
            block: RawBlock::default(),
            sentence: Sentence::default(),
            buffers: GraphBuffers::default(),
            workspace: QueryWorkspace::default(),
            seen: FxHashSet::default(),
            found: Vec::new(),
            counts: SearchCounts::default(),
        }
    }

    /// What the search has read and found so far (all of it once [`Search::next_matches`]
    /// returned `None`).
    pub fn counts(&self) -> &SearchCounts {
        &self.counts
    }

    /// The next sentence with matches, or `None` at the end of the input. A sentence that is
    /// not valid CoNLL-U (DEPS included, when the file's graph is searched) is an
    /// [`Error::Input`] at its line.
    pub fn next_matches(&mut self) -> Result<Option<SentenceMatches>, Error> {
        let pattern = &*self.pattern;
        let file = &self.file;
        let io = |error| Error::Io {
            file: file.clone(),
            error,
        };
        while self.reader.read_block(&mut self.block).map_err(io)? {
            if self.block.is_blank() {
                continue;
            }
            let block = std::mem::take(&mut self.block);
            let parsed = match &pattern.enhancer {
                None => self.sentence.parse_into(block),
                Some(_) => self.sentence.parse_into_ignoring_deps(block),
            };
            if let Err(e) = parsed {
                return Err(Error::Input {
                    file: file.clone(),
                    line: e.1.line,
                    message: e.1.message.clone(),
                });
            }
            self.counts.sentences_read += 1;
            let sentence = &self.sentence;
            let buffers = std::mem::take(&mut self.buffers);
            let graph = match &pattern.enhancer {
                None => SentenceGraph::from_deps_in(sentence, buffers),
                Some(enhancer) => {
                    let mut graph = SentenceGraph::from_basic_in(sentence, buffers);
                    if enhancer.engine.run(&mut graph).is_err() {
                        self.counts.runaways += 1;
                        graph = SentenceGraph::from_basic_in(sentence, graph.into_buffers());
                    }
                    graph
                }
            };
            self.seen.clear();
            self.found.clear();
            let match_vars = pattern.query.match_vars();
            let (seen, found) = (&mut self.seen, &mut self.found);
            let whole = pattern
                .query
                .search(&graph, &mut self.workspace, &mut |binding| {
                    if seen.insert((binding.nodes[..match_vars].to_vec(), binding.edges.clone())) {
                        let mut kept = Binding::default();
                        kept.keep(binding, &graph);
                        found.push(kept);
                    }
                    true
                });
            self.counts.cut_short += usize::from(!whole);
            let matches = (!self.found.is_empty()).then(|| {
                self.counts.sentences_matched += 1;
                self.counts.matches += self.found.len();
                pattern.describe(&graph, &self.found)
            });
            self.buffers = graph.into_buffers();
            self.block.bytes = self.sentence.take_bytes();
            if matches.is_some() {
                return Ok(matches);
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "Mary wants to sleep and eats": a conjunct sharing its subject (in DEPS), an xcomp
    /// subject, and an empty node 2.1 standing for a gapped verb.
    const TEXT: &str = "# sent_id = s1\n\
        1\tMary\tMary\tPROPN\t_\tNumber=Sing\t2\tnsubj\t2:nsubj|4:nsubj:xsubj|6:nsubj\t_\n\
        2\twants\twant\tVERB\t_\t_\t0\troot\t0:root\t_\n\
        2.1\twant\twant\tVERB\t_\t_\t_\t_\t2:conj\t_\n\
        3\tto\tto\tPART\t_\t_\t4\tmark\t4:mark\t_\n\
        4\tsleep\tsleep\tVERB\t_\t_\t2\txcomp\t2:xcomp\tSpaceAfter=No\n\
        5\tand\tand\tCCONJ\t_\t_\t6\tcc\t6:cc\t_\n\
        6\teats\teat\tVERB\t_\t_\t2\tconj\t2:conj:and\t_\n\n";

    fn search(pattern: &str) -> SearchResult {
        Pattern::new(pattern)
            .unwrap_or_else(|e| panic!("{e}"))
            .search_str(TEXT)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// A search pulled a sentence at a time reads no further than the sentence it returns, and
    /// ends with the counts `search_each` gives; an owned pattern (`Arc`) searches as a borrowed
    /// one.
    #[test]
    fn a_search_is_pulled_one_sentence_with_matches_at_a_time() {
        let pattern = std::sync::Arc::new(Pattern::new("match { H =[conj]=> C; }").unwrap());
        let text = format!("{TEXT}{}{TEXT}", TEXT.replace("2:conj", "2:parataxis"));
        let mut search = Search::new(pattern.clone(), "<text>", text.as_bytes());
        let first = search.next_matches().unwrap().expect("a first sentence");
        assert_eq!((first.line, search.counts().sentences_read), (1, 1));
        let second = search.next_matches().unwrap().expect("the third sentence");
        assert_eq!((second.line, search.counts().sentences_read), (19, 3));
        assert_eq!(search.next_matches().unwrap(), None);
        let all = pattern.search_str(&text).unwrap();
        assert_eq!(search.counts(), &all.counts);
        assert_eq!(all.counts.matches, 2);
        assert_eq!(all.sentences, [first, second]);
    }

    #[test]
    fn enhanced_edges_are_the_files_deps() {
        let found = search("match { V =[nsubj:xsubj]=> S; }");
        assert_eq!(found.counts.matches, 1);
        let m = &found.sentences[0].matches[0];
        assert_eq!(
            (
                m.node("V").unwrap().form.as_str(),
                m.node("S").unwrap().id.as_str()
            ),
            ("sleep", "1")
        );
        assert_eq!(
            found.sentences[0].marked_text(0),
            "[Mary/S] wants to [sleep/V]and eats"
        );
        // The basic tree has no such edge.
        assert_eq!(search("match { V -[nsubj:xsubj]-> S; }").counts.matches, 0);
    }

    #[test]
    fn empty_nodes_are_nodes_with_their_own_columns() {
        let found = search("match { H =[conj]=> E; E [lemma=want]; }");
        assert_eq!(found.counts.matches, 1);
        let m = &found.sentences[0].matches[0];
        assert_eq!(m.node("E").unwrap().id, "2.1");
        assert_eq!(
            found.sentences[0].marked_text(0),
            "Mary [wants/H] [E2.1/E] to sleepand eats"
        );
    }

    #[test]
    fn without_blocks_and_edge_variables() {
        let found = search("match { e: H =[*]=> S; S [upos=PROPN]; } without { H -[mark]-> M; }");
        let labels: Vec<String> = found.sentences[0]
            .matches
            .iter()
            .map(|m| m.value("e.label").unwrap().unwrap())
            .collect();
        assert_eq!(
            labels,
            ["nsubj", "nsubj"],
            "the xcomp (with its mark) is left out"
        );
        assert_eq!(
            found.sentences[0].matches[0].value("S.Number"),
            Ok(Some("Sing".to_string()))
        );
        assert!(found.sentences[0].matches[0].value("Q.lemma").is_err());
    }

    #[test]
    fn the_computed_graph_under_a_profile() {
        let basic = TEXT
            .lines()
            .filter(|l| !l.starts_with("2.1"))
            .map(|l| {
                let mut c: Vec<&str> = l.split('\t').collect();
                if c.len() == 10 {
                    c[8] = "_";
                }
                c.join("\t") + "\n"
            })
            .collect::<String>();
        let pattern =
            Pattern::for_profile("match { V =[nsubj:xsubj]=> S; }", PATTERN_NAME, "en", None)
                .unwrap();
        let found = pattern.search_str(&basic).unwrap();
        assert_eq!(found.counts.sentences_read, 1);
        assert_eq!(found.counts.matches, 1, "en adds the controlled subject");
        assert_eq!(
            Pattern::new("match { V =[nsubj:xsubj]=> S; }")
                .unwrap()
                .search_str(&basic)
                .unwrap()
                .counts
                .matches,
            0
        );
    }

    /// A pattern whose search grows as n⁵ (five children of one head, an agreement that fails
    /// only when all are bound) on an 80-word flat sentence: cut short by the work budget,
    /// and counted.
    #[test]
    fn a_costly_search_is_cut_short_and_counted() {
        let mut text = String::from("1\th\th\tVERB\t_\t_\t0\troot\t0:root\t_\n");
        for n in 2..=80 {
            let case = if n % 2 == 0 { "Nom" } else { "Acc" };
            text.push_str(&format!(
                "{n}\tw\tw\tNOUN\t_\tCase={case}\t1\tdep\t1:dep\t_\n"
            ));
        }
        text.push('\n');
        let pattern = "match { H -[*]-> A; H -[*]-> B; H -[*]-> C; H -[*]-> D; H -[*]-> E; A.Case != E.Case; A.Case != E.Case; }";
        let found = Pattern::new(pattern).unwrap().search_str(&text).unwrap();
        assert_eq!(found.counts.cut_short, 1);
        assert!(
            found.counts.matches > 0,
            "what was found before the budget ran out is reported"
        );
    }

    #[test]
    fn a_bad_pattern_is_a_rules_error_with_a_caret() {
        match Pattern::new("match { H -[nsubjx]-> S; }") {
            Err(Error::Rules(message)) => assert!(
                message.contains("<pattern>:1:") && message.contains('^'),
                "{message}"
            ),
            Err(other) => panic!("{other}"),
            Ok(_) => panic!("accepted"),
        }
    }

    #[test]
    fn bad_deps_are_an_input_error() {
        let text = TEXT.replace("2:conj:and", "9:conj");
        match Pattern::new("match { H =[conj]=> C; }")
            .unwrap()
            .search_str(&text)
        {
            Err(Error::Input { line, .. }) => assert_eq!(line, 8),
            other => panic!("{other:?}"),
        }
    }
}
