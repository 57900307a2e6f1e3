//! The sentence graph: words, empty nodes and the root as petgraph nodes; the basic tree kept
//! read-only in the [`Sentence`]; the enhanced graph as labelled edges that rules rewrite.
//!
//! The enhanced graph allows parallel edges (the same two nodes with different labels, as in
//! `nsubj` + `nsubj:xsubj` in some treebanks) but never the same (head, dependent, label) twice.
//! Every edge remembers what made it (the basic tree or a rule), for `eudify explain`; when
//! asked ([`SentenceGraph::record_changes`]), the graph also logs every change made to it, for
//! the rule applications of `Enhancer::explain` and `eudify eval --by-rule`.

use crate::conllu::sentence::{DEPREL, FEATS, FORM, LEMMA, MISC, UPOS, XPOS};
use crate::conllu::{EnhancedLayer, NodeId, Sentence};
use petgraph::stable_graph::{EdgeIndex, NodeIndex, StableDiGraph};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

pub use interner::Interner;
pub use labels::{Label, LabelTable};
pub use relations::{
    bare_relation_code, label_bit, relation_bit, relation_code, relation_index, upos_bit,
    OTHER_RELATION, RELATIONS, SUBTYPED, UPOS_TAGS,
};

mod interner;
mod labels;
mod relations;

/// What created or last changed an edge.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    Basic,
    /// Index of the rule in the rule set that was applied.
    Rule(u32),
}

/// One change to the enhanced graph, in the log [`SentenceGraph::record_changes`] starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Rule `r` is applied: the changes that follow, up to the next `Apply`, are its own.
    Apply(u32),
    Added {
        head: NodeIndex,
        dependent: NodeIndex,
        label: Label,
    },
    Removed {
        head: NodeIndex,
        dependent: NodeIndex,
        label: Label,
    },
    /// An edge's label changed (onto a parallel edge that had `to` already: the two merged).
    Relabelled {
        head: NodeIndex,
        dependent: NodeIndex,
        from: Label,
        to: Label,
    },
    EmptyNode(NodeIndex),
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Edge {
    /// Its text is [`SentenceGraph::label_text`].
    pub label: Label,
    pub origin: Origin,
    /// [`relation_code`] of the label, kept beside it so matching tests relations as bits
    /// without a table lookup.
    pub code: u8,
}

impl Edge {
    /// [`relation_index`] of the label.
    pub fn relation(&self) -> u8 {
        self.code & !SUBTYPED
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Root,
    /// Word `n` of the sentence.
    Word(u32),
    /// An empty node placed after word `after` (0: before the first word), copying the
    /// columns of word `copy_of` (0: all columns `_`). Its `k` in `after.k` is given on output.
    Empty {
        after: u32,
        copy_of: u32,
    },
    /// Empty node `i` of the input ([`Sentence::empty_nodes`]), with its own columns: graphs
    /// read from DEPS ([`SentenceGraph::from_deps_in`]) have these.
    Given(u32),
}

pub struct SentenceGraph<'s> {
    pub sentence: &'s Sentence,
    /// The graph and the sentence's indexes, in buffers kept from sentence to sentence.
    buffers: GraphBuffers,
    /// Words of relation `r` are `relation_words[relation_start[r]..relation_start[r + 1]]`.
    relation_start: [u32; 65],
    upos: u32,
    /// The universal relations of the basic tree (bits).
    basic_relations: u64,
    /// Relations that edges of the enhanced graph have or had (a superset: removals are not
    /// tracked), to skip rules whose enhanced edges cannot match.
    enhanced_relations: u64,
    /// The log of changes, when asked for: `None` on the fast path, which then pays one
    /// test per change.
    changes: Option<Vec<Change>>,
}

/// The allocations of a [`SentenceGraph`], kept from one sentence to the next so that building
/// a graph allocates nothing once they are large enough.
#[derive(Debug, Default)]
pub struct GraphBuffers {
    graph: StableDiGraph<Node, Edge>,
    /// `word_nodes[n]` is the node of word `n`; `word_nodes[0]` is the root.
    word_nodes: Vec<NodeIndex>,
    /// Basic children of word `n`, in word order, are
    /// `children[children_start[n]..children_start[n + 1]]` (n = 0: the root's child).
    children: Vec<u32>,
    children_start: Vec<u32>,
    /// Scratch space of [`SentenceGraph::from_basic_in`].
    next_child: Vec<u32>,
    /// In a sentence with a word of more than [`WIDE`] children: each word's children (same
    /// ranges as `children`) grouped by universal relation, each group in word order. Else empty.
    children_by_relation: Vec<u32>,
    /// Relations (bits) of the basic children of word `n` (0: the root).
    child_relations: Vec<u64>,
    /// Empty nodes in creation order.
    empty_nodes: Vec<NodeIndex>,
    /// Words grouped by the universal relation of their basic DEPREL (bit index of
    /// [`relation_bit`]), delimited by [`SentenceGraph`]'s `relation_start`.
    relation_words: Vec<u32>,
    /// [`relation_code`] of each word's basic DEPREL (word `n` at `n - 1`).
    word_code: Vec<u8>,
    /// Each word's basic DEPREL, interned (word `n` at `n - 1`).
    word_label: Vec<Label>,
    /// Each word's UPOS, as the index of its [`upos_bit`] (word `n` at `n - 1`).
    word_upos: Vec<u8>,
    /// The labels of this thread's graphs, kept from sentence to sentence.
    labels: LabelTable,
    /// Scratch space of [`SentenceGraph::write_layer`]: output ids, and one node's DEPS.
    output_ids: Vec<(NodeIndex, NodeId)>,
    deps: Vec<(NodeId, Label)>,
}

impl GraphBuffers {
    /// Adds the label repairs counted since the last call to `into` ([`LabelTable::take_repairs`]).
    pub fn take_repairs(&mut self, into: &mut crate::ud::Repairs) {
        if self.labels.has_repairs() {
            self.labels.take_repairs(into);
        }
    }
}

/// The relation code of a bare `root`.
const ROOT: u8 = bare_relation_code("root");
/// A word with more children than this gets them grouped by relation too
/// ([`SentenceGraph::basic_children_for`]).
const WIDE: usize = 32;

/// Buffers for sentences longer than this are not kept (one long sentence would otherwise
/// hold its memory for the rest of the run).
const KEEP_WORDS: usize = 1024;

impl<'s> SentenceGraph<'s> {
    /// A graph whose enhanced edges are the basic tree (HEAD:DEPREL), with no empty nodes.
    pub fn from_basic(sentence: &'s Sentence) -> Self {
        Self::from_basic_in(sentence, GraphBuffers::default())
    }

    /// [`SentenceGraph::from_basic`] in the buffers of an earlier graph
    /// ([`SentenceGraph::into_buffers`]).
    pub fn from_basic_in(sentence: &'s Sentence, mut buffers: GraphBuffers) -> Self {
        let GraphBuffers {
            graph,
            word_nodes,
            children,
            children_start,
            next_child,
            children_by_relation,
            child_relations,
            empty_nodes,
            relation_words,
            word_code,
            word_label,
            word_upos,
            labels,
            output_ids: _,
            deps: _,
        } = &mut buffers;
        labels.trim();
        let n = sentence.words.len();
        graph.clear();
        graph.reserve_nodes(n + 1);
        graph.reserve_edges(n + n / 2);
        word_nodes.clear();
        word_nodes.push(graph.add_node(Node::Root));
        for i in 1..=n as u32 {
            word_nodes.push(graph.add_node(Node::Word(i)));
        }
        // One pass to count, one to place: children and relation groups as flat arrays (CSR).
        children_start.clear();
        children_start.resize(n + 2, 0);
        child_relations.clear();
        child_relations.resize(n + 1, 0);
        let mut relation_start = [0u32; 65];
        word_code.clear();
        word_label.clear();
        word_upos.clear();
        let (mut upos, mut basic_relations) = (0, 0);
        let mut wide = false;
        for word in &sentence.words {
            let deprel = sentence.column(word, DEPREL);
            let mut label = labels.intern(deprel);
            let mut code = labels.code(label);
            // UD: the word attached to 0 is `root`, and no other word is (a parser's tree may
            // say otherwise; the enhanced graph must not).
            if if word.head == 0 {
                code != ROOT
            } else {
                code & !SUBTYPED == ROOT
            } {
                let (text, kind) = if word.head == 0 {
                    ("root", crate::ud::repairs::ROOT_EDGE)
                } else {
                    ("dep", crate::ud::repairs::ROOT_ELSEWHERE)
                };
                label = labels.intern(text);
                code = labels.code(label);
                labels.note_repair(kind);
            }
            let relation = (code & !SUBTYPED) as usize;
            let edge = Edge {
                label,
                origin: Origin::Basic,
                code,
            };
            graph.add_edge(
                word_nodes[word.head as usize],
                word_nodes[word.id.word as usize],
                edge,
            );
            children_start[word.head as usize + 1] += 1;
            wide |= children_start[word.head as usize + 1] as usize > WIDE;
            child_relations[word.head as usize] |= 1u64 << relation;
            word_code.push(code);
            word_label.push(label);
            relation_start[relation + 1] += 1;
            basic_relations |= 1u64 << relation;
            let tag = upos_bit(sentence.column(word, UPOS));
            upos |= tag;
            word_upos.push(tag.trailing_zeros() as u8);
        }
        for i in 0..=n {
            children_start[i + 1] += children_start[i];
        }
        for r in 0..64 {
            relation_start[r + 1] += relation_start[r];
        }
        children.clear();
        children.resize(n, 0);
        next_child.clone_from(children_start);
        relation_words.clear();
        relation_words.resize(n, 0);
        let mut next_relation = relation_start;
        for (i, word) in sentence.words.iter().enumerate() {
            let slot = &mut next_child[word.head as usize];
            children[*slot as usize] = i as u32 + 1;
            *slot += 1;
            let relation = (word_code[i] & !SUBTYPED) as usize;
            relation_words[next_relation[relation] as usize] = i as u32 + 1;
            next_relation[relation] += 1;
        }
        children_by_relation.clear();
        if wide {
            // Words come grouped by relation: placed in turn, each head's children are too.
            children_by_relation.resize(n, 0);
            next_child.clone_from(children_start);
            for &w in relation_words.iter() {
                let slot = &mut next_child[sentence.words[w as usize - 1].head as usize];
                children_by_relation[*slot as usize] = w;
                *slot += 1;
            }
        }
        empty_nodes.clear();
        SentenceGraph {
            sentence,
            buffers,
            relation_start,
            upos,
            basic_relations,
            enhanced_relations: basic_relations,
            changes: None,
        }
    }

    /// A graph whose enhanced edges are what the sentence's DEPS column says, over its words and
    /// its own empty nodes (for searching a file's enhanced layer as it is), in the buffers of
    /// an earlier graph. The sentence must have been parsed with its DEPS ([`Sentence::parse`]),
    /// which checks that they name nodes of the sentence.
    pub fn from_deps_in(sentence: &'s Sentence, buffers: GraphBuffers) -> Self {
        let mut graph = Self::from_basic_in(sentence, buffers);
        graph.buffers.graph.clear_edges();
        graph.enhanced_relations = 0;
        let first_empty = graph.buffers.graph.node_count();
        for i in 0..sentence.empty_nodes.len() as u32 {
            let index = graph.buffers.graph.add_node(Node::Given(i));
            graph.buffers.empty_nodes.push(index);
        }
        let node_of = |id: NodeId| -> Option<NodeIndex> {
            if id.empty == 0 {
                graph.buffers.word_nodes.get(id.word as usize).copied()
            } else {
                let i = sentence
                    .empty_nodes
                    .binary_search_by(|t| t.id.cmp(&id))
                    .ok()?;
                Some(NodeIndex::new(first_empty + i))
            }
        };
        let tokens = sentence.words.iter().chain(&sentence.empty_nodes);
        let edges: Vec<(NodeIndex, NodeIndex, &str)> = tokens
            .flat_map(|token| {
                sentence
                    .deps(token)
                    .map(move |(head, label)| (head, token.id, label))
            })
            .filter_map(|(head, dependent, label)| {
                Some((node_of(head)?, node_of(dependent)?, label))
            })
            .collect();
        for (head, dependent, label) in edges {
            let label = graph.intern(label);
            graph.add_edge(head, dependent, label, Origin::Basic);
        }
        graph
    }

    /// Starts logging every change made to the enhanced graph from now on ([`Change`]).
    pub fn record_changes(&mut self) {
        self.changes.get_or_insert_with(Vec::new);
    }

    /// The changes logged since [`SentenceGraph::record_changes`] (none if it was not called).
    pub fn changes(&self) -> &[Change] {
        self.changes.as_deref().unwrap_or_default()
    }

    /// Logs that rule `rule` is being applied: the changes that follow are its own.
    #[inline]
    pub fn note_application(&mut self, rule: u32) {
        self.log(Change::Apply(rule));
    }

    #[inline]
    fn log(&mut self, change: Change) {
        if let Some(changes) = &mut self.changes {
            changes.push(change);
        }
    }

    /// Gives back the graph's allocations for the next sentence (none after a very long one).
    pub fn into_buffers(mut self) -> GraphBuffers {
        if self.buffers.word_nodes.capacity() > KEEP_WORDS + 1 {
            return GraphBuffers {
                labels: std::mem::take(&mut self.buffers.labels),
                ..GraphBuffers::default()
            };
        }
        self.buffers
    }

    /// Relations the enhanced graph's edges may have (every one it has, perhaps more).
    pub fn enhanced_relations(&self) -> u64 {
        self.enhanced_relations
    }

    /// The UPOS tags of the sentence's words, as a set of [`upos_bit`]s.
    pub fn upos_tags(&self) -> u32 {
        self.upos
    }

    /// Words whose basic DEPREL's universal relation is in `relations` (a set of
    /// [`relation_bit`]s), in order of relation then word.
    pub fn words_with_relations(&self, relations: u64) -> impl Iterator<Item = u32> + '_ {
        RelationWords {
            graph: self,
            bits: relations,
            words: &[],
        }
    }

    /// The universal relations present in the basic tree, as a set of [`relation_bit`]s.
    pub fn basic_relations(&self) -> u64 {
        self.basic_relations
    }

    pub fn petgraph(&self) -> &StableDiGraph<Node, Edge> {
        &self.buffers.graph
    }

    pub fn node(&self, index: NodeIndex) -> Node {
        self.buffers.graph[index]
    }

    pub fn root(&self) -> NodeIndex {
        self.buffers.word_nodes[0]
    }

    pub fn word_node(&self, n: u32) -> NodeIndex {
        self.buffers.word_nodes[n as usize]
    }

    pub fn word_count(&self) -> u32 {
        self.sentence.words.len() as u32
    }

    /// Words then empty nodes (not the root).
    pub fn nodes(&self) -> impl Iterator<Item = NodeIndex> + '_ {
        self.buffers.word_nodes[1..]
            .iter()
            .chain(&self.buffers.empty_nodes)
            .copied()
    }

    // --- the basic tree (read-only) ---

    /// Basic head of word `n` (0 for the root's dependent).
    pub fn basic_head(&self, n: u32) -> u32 {
        self.sentence.word(n).head
    }

    /// [`relation_index`] of word `n`'s basic DEPREL.
    pub fn basic_relation(&self, n: u32) -> u8 {
        self.buffers.word_code[n as usize - 1] & !SUBTYPED
    }

    /// [`relation_code`] of word `n`'s basic DEPREL.
    pub fn basic_code(&self, n: u32) -> u8 {
        self.buffers.word_code[n as usize - 1]
    }

    pub fn basic_deprel(&self, n: u32) -> &'s str {
        self.sentence.column(self.sentence.word(n), DEPREL)
    }

    /// Word `n`'s basic DEPREL as a [`Label`].
    pub fn basic_label(&self, n: u32) -> Label {
        self.buffers.word_label[n as usize - 1]
    }

    /// Relations (bits) of the basic children of word `n` (0: the root).
    pub fn basic_child_relations(&self, n: u32) -> u64 {
        self.buffers.child_relations[n as usize]
    }

    /// [`SentenceGraph::basic_child_relations`] of every word, the root's first.
    pub fn basic_child_relation_sets(&self) -> &[u64] {
        &self.buffers.child_relations
    }

    /// [`SentenceGraph::basic_code`] of every word (word `n` at `n - 1`).
    pub fn basic_codes(&self) -> &[u8] {
        &self.buffers.word_code
    }

    /// Every word's UPOS as the index of its [`upos_bit`] (word `n` at `n - 1`).
    pub fn upos_indices(&self) -> &[u8] {
        &self.buffers.word_upos
    }

    /// [`label_bit`] of word `n`'s basic label, as interned.
    pub fn basic_label_bit(&self, n: u32) -> u64 {
        self.buffers.labels.bit(self.basic_label(n))
    }

    /// The word a node is (0 for the root), if it is not an empty node.
    pub fn word_of(&self, index: NodeIndex) -> Option<u32> {
        match self.buffers.graph[index] {
            Node::Root => Some(0),
            Node::Word(n) => Some(n),
            Node::Empty { .. } | Node::Given(_) => None,
        }
    }

    pub fn basic_children(&self, n: u32) -> &[u32] {
        &self.buffers.children[self.buffers.children_start[n as usize] as usize
            ..self.buffers.children_start[n as usize + 1] as usize]
    }

    /// The basic children of word `n` that a label with one of `relations` (bits of
    /// [`relation_bit`]) may join to it, in word order: a word with thousands of children (the
    /// head of a long coordination) offers only those of the one relation asked for, when its
    /// children have only one of them. Otherwise all its children, or none.
    pub fn basic_children_for(&self, n: u32, relations: u64) -> &[u32] {
        let all = self.basic_children(n);
        let present = self.basic_child_relations(n) & relations;
        if present == 0 {
            return &[];
        }
        if all.len() <= WIDE
            || present.count_ones() != 1
            || self.buffers.children_by_relation.is_empty()
        {
            return all;
        }
        let relation = present.trailing_zeros() as u8;
        let start = self.buffers.children_start[n as usize] as usize;
        let group = &self.buffers.children_by_relation[start..start + all.len()];
        let of = |c: u32| self.basic_relation(c);
        &group[group.partition_point(|&c| of(c) < relation)
            ..group.partition_point(|&c| of(c) <= relation)]
    }

    // --- node attributes ---

    /// A column of the word a node shows: itself, or the word an empty node copies (`_` for the
    /// root and blank empty nodes; MISC of an empty node is its own, `_`). One node lookup: this
    /// runs for every node test and template value.
    pub fn column(&self, index: NodeIndex, column: usize) -> &'s str {
        // Word n is node n (`from_basic_in` adds the root, then the words in order): no
        // lookup in the graph for words.
        let i = index.index();
        if let Some(word) = i.checked_sub(1).and_then(|w| self.sentence.words.get(w)) {
            debug_assert_eq!(self.buffers.word_nodes[i], index);
            return self.sentence.column(word, column);
        }
        match self.buffers.graph[index] {
            Node::Word(n) => self.sentence.column(self.sentence.word(n), column),
            Node::Empty { copy_of, .. } if copy_of != 0 && column != MISC => {
                self.sentence.column(self.sentence.word(copy_of), column)
            }
            Node::Given(i) => self
                .sentence
                .column(&self.sentence.empty_nodes[i as usize], column),
            _ => "_",
        }
    }

    pub fn form(&self, index: NodeIndex) -> &'s str {
        self.column(index, FORM)
    }

    pub fn lemma(&self, index: NodeIndex) -> &'s str {
        self.column(index, LEMMA)
    }

    pub fn upos(&self, index: NodeIndex) -> &'s str {
        self.column(index, UPOS)
    }

    pub fn xpos(&self, index: NodeIndex) -> &'s str {
        self.column(index, XPOS)
    }

    /// The value of feature `name` in FEATS, if present.
    pub fn feature(&self, index: NodeIndex, name: &str) -> Option<&'s str> {
        feature_value(self.column(index, FEATS), name)
    }

    /// Linear position for word-order constraints: words by number, an empty node just after
    /// the word it follows, the root before everything.
    pub fn position(&self, index: NodeIndex) -> (u32, u32) {
        match self.buffers.graph[index] {
            Node::Root => (0, 0),
            Node::Word(n) => (n, 0),
            Node::Empty { after, .. } => (
                after,
                1 + self
                    .buffers
                    .empty_nodes
                    .iter()
                    .position(|&e| e == index)
                    .unwrap_or(0) as u32,
            ),
            Node::Given(i) => {
                let id = self.sentence.empty_nodes[i as usize].id;
                (id.word, id.empty)
            }
        }
    }

    // --- the enhanced graph ---

    /// The text of a label of this graph.
    pub fn label_text(&self, label: Label) -> &str {
        self.buffers.labels.text(label)
    }

    /// The [`Label`] of `text`, added to the graph's labels if new; a text that is not a label
    /// of UD's shape gives its repair ([`LabelTable::intern`]).
    pub fn intern(&mut self, text: &str) -> Label {
        self.buffers.labels.intern(text)
    }

    /// Counts one repair of `kind` made while building a label from input text.
    pub fn note_repair(&mut self, kind: &'static str) {
        self.buffers.labels.note_repair(kind);
    }

    /// The [`Label`] of `text`, if some edge may have it.
    pub fn find_label(&self, text: &str) -> Option<Label> {
        self.buffers.labels.find(text)
    }

    pub fn incoming(
        &self,
        node: NodeIndex,
    ) -> impl Iterator<Item = (EdgeIndex, NodeIndex, &Edge)> + '_ {
        self.buffers
            .graph
            .edges_directed(node, Direction::Incoming)
            .map(|e| (e.id(), e.source(), e.weight()))
    }

    pub fn outgoing(
        &self,
        node: NodeIndex,
    ) -> impl Iterator<Item = (EdgeIndex, NodeIndex, &Edge)> + '_ {
        self.buffers
            .graph
            .edges_directed(node, Direction::Outgoing)
            .map(|e| (e.id(), e.target(), e.weight()))
    }

    pub fn edge(&self, edge: EdgeIndex) -> Option<(NodeIndex, NodeIndex, &Edge)> {
        let (head, dependent) = self.buffers.graph.edge_endpoints(edge)?;
        Some((head, dependent, &self.buffers.graph[edge]))
    }

    pub fn find_edge(
        &self,
        head: NodeIndex,
        dependent: NodeIndex,
        label: Label,
    ) -> Option<EdgeIndex> {
        self.edges_between(head, dependent)
            .find(|(_, e)| e.label == label)
            .map(|(id, _)| id)
    }

    /// The edges from `head` to `dependent`, found from whichever end has fewer edges: a
    /// dependent usually has few heads, but one shared by every conjunct of a long coordination
    /// has thousands, while each conjunct has few dependents. Costs a few steps of both lists
    /// more than the shorter one.
    pub fn edges_between(
        &self,
        head: NodeIndex,
        dependent: NodeIndex,
    ) -> impl Iterator<Item = (EdgeIndex, &Edge)> + '_ {
        let graph = &self.buffers.graph;
        let (mut heads, mut dependents) = (
            graph.edges_directed(dependent, Direction::Incoming),
            graph.edges_directed(head, Direction::Outgoing),
        );
        let from_dependent = loop {
            if heads.next().is_none() {
                break true;
            }
            if dependents.next().is_none() {
                break false;
            }
        };
        let (start, direction, other) = if from_dependent {
            (dependent, Direction::Incoming, head)
        } else {
            (head, Direction::Outgoing, dependent)
        };
        graph
            .edges_directed(start, direction)
            .filter(move |e| {
                (if from_dependent {
                    e.source()
                } else {
                    e.target()
                }) == other
            })
            .map(|e| (e.id(), e.weight()))
    }

    /// Adds an enhanced edge unless the same one exists; returns the [`relation_code`] of its
    /// label when added.
    pub fn add_edge(
        &mut self,
        head: NodeIndex,
        dependent: NodeIndex,
        label: Label,
        origin: Origin,
    ) -> Option<u8> {
        if self.find_edge(head, dependent, label).is_some() {
            return None;
        }
        let code = self.buffers.labels.code(label);
        let edge = Edge {
            label,
            origin,
            code,
        };
        self.enhanced_relations |= 1u64 << edge.relation();
        self.buffers.graph.add_edge(head, dependent, edge);
        self.log(Change::Added {
            head,
            dependent,
            label,
        });
        Some(code)
    }

    pub fn remove_edge(&mut self, edge: EdgeIndex) -> bool {
        if self.changes.is_some() {
            if let Some((head, dependent)) = self.buffers.graph.edge_endpoints(edge) {
                let label = self.buffers.graph[edge].label;
                self.log(Change::Removed {
                    head,
                    dependent,
                    label,
                });
            }
        }
        self.buffers.graph.remove_edge(edge).is_some()
    }

    /// Changes an edge's label; if that would duplicate a parallel edge, the edge is removed.
    /// Returns the [`relation_code`] of the old label and of the new one when the edge changed.
    pub fn relabel(&mut self, edge: EdgeIndex, label: Label, origin: Origin) -> Option<(u8, u8)> {
        let (head, dependent) = self.buffers.graph.edge_endpoints(edge)?;
        let old = &self.buffers.graph[edge];
        if old.label == label {
            return None;
        }
        let (old_code, old_label) = (old.code, old.label);
        let new_code = self.buffers.labels.code(label);
        self.log(Change::Relabelled {
            head,
            dependent,
            from: old_label,
            to: label,
        });
        if self.find_edge(head, dependent, label).is_some() {
            self.buffers.graph.remove_edge(edge);
            Some((old_code, new_code))
        } else {
            let new = Edge {
                label,
                origin,
                code: new_code,
            };
            self.enhanced_relations |= 1u64 << new.relation();
            self.buffers.graph[edge] = new;
            Some((old_code, new_code))
        }
    }

    /// Adds an empty node after word `after`, showing the columns of word `copy_of` (0: none).
    pub fn add_empty_node(&mut self, after: u32, copy_of: u32) -> NodeIndex {
        let index = self.buffers.graph.add_node(Node::Empty { after, copy_of });
        self.buffers.empty_nodes.push(index);
        self.log(Change::EmptyNode(index));
        index
    }

    /// The `NodeId` each node will have on output: empty nodes numbered `after.1, after.2, …`
    /// in creation order.
    pub fn output_ids(&self) -> Vec<(NodeIndex, NodeId)> {
        let mut ids = Vec::new();
        self.output_ids_into(&mut ids);
        ids
    }

    /// [`SentenceGraph::output_ids`] into `ids` (cleared first).
    fn output_ids_into(&self, ids: &mut Vec<(NodeIndex, NodeId)>) {
        ids.clear();
        ids.reserve(self.buffers.word_nodes.len() + self.buffers.empty_nodes.len());
        for (n, &index) in self.buffers.word_nodes.iter().enumerate() {
            ids.push((index, NodeId::word(n as u32)));
        }
        let mut empties: Vec<(u32, usize, NodeIndex)> = Vec::new();
        for (order, &index) in self.buffers.empty_nodes.iter().enumerate() {
            match self.buffers.graph[index] {
                Node::Empty { after, .. } => empties.push((after, order, index)),
                // An empty node of the input keeps its id.
                Node::Given(i) => ids.push((index, self.sentence.empty_nodes[i as usize].id)),
                Node::Root | Node::Word(_) => unreachable!("empty_nodes holds empty nodes only"),
            }
        }
        empties.sort_unstable();
        let mut k = 0;
        let mut previous = u32::MAX;
        for (after, _, index) in empties {
            k = if after == previous { k + 1 } else { 1 };
            previous = after;
            ids.push((index, NodeId::empty(after, k)));
        }
    }

    /// Writes the enhanced graph as DEPS (sorted by head, then label; no duplicates) and the
    /// empty-node lines into `layer`.
    /// Its scratch vectors are the graph's buffers: nothing is allocated once they are large
    /// enough (sentences without empty nodes).
    pub fn write_layer(&mut self, layer: &mut EnhancedLayer) {
        let mut ids = std::mem::take(&mut self.buffers.output_ids);
        let mut deps = std::mem::take(&mut self.buffers.deps);
        self.output_ids_into(&mut ids);
        self.write_layer_with(layer, &ids, &mut deps);
        self.buffers.output_ids = ids;
        self.buffers.deps = deps;
    }

    fn write_layer_with(
        &self,
        layer: &mut EnhancedLayer,
        ids: &[(NodeIndex, NodeId)],
        deps: &mut Vec<(NodeId, Label)>,
    ) {
        layer.clear();
        // Empty nodes by node index, for the lookup below: a scan of `ids` per edge would be
        // quadratic in a sentence with thousands of gapped clauses. Allocated only when there
        // are empty nodes.
        let words = self.buffers.word_nodes.len();
        let mut empty_ids: Vec<(NodeIndex, NodeId)> = ids.get(words..).unwrap_or_default().to_vec();
        empty_ids.sort_unstable_by_key(|(n, _)| n.index());
        let id_of = |index: NodeIndex| -> NodeId {
            // Word nodes come first and in order.
            let i = index.index();
            if i < words && self.buffers.word_nodes[i] == index {
                NodeId::word(i as u32)
            } else {
                empty_ids
                    .binary_search_by_key(&i, |(n, _)| n.index())
                    .map_or_else(|_| NodeId::default(), |k| empty_ids[k].1)
            }
        };
        let mut write_deps = |layer: &mut EnhancedLayer, node: NodeIndex| {
            deps.clear();
            deps.extend(
                self.incoming(node)
                    .map(|(_, head, edge)| (id_of(head), edge.label)),
            );
            if deps.len() > 1 {
                // By head, then label text; one label text is one id.
                deps.sort_unstable_by(|a, b| {
                    a.0.cmp(&b.0)
                        .then_with(|| self.label_text(a.1).cmp(self.label_text(b.1)))
                });
                deps.dedup();
            }
            let out = layer.buffer();
            if deps.is_empty() {
                out.push(b'_');
            }
            for (i, (head, label)) in deps.iter().enumerate() {
                if i > 0 {
                    out.push(b'|');
                }
                head.write_to(out);
                out.push(b':');
                out.extend_from_slice(self.label_text(*label).as_bytes());
            }
        };
        for &node in &self.buffers.word_nodes[1..] {
            let start = layer.mark();
            write_deps(layer, node);
            layer.end_word_deps(start);
        }
        for &(node, id) in ids.iter().filter(|(_, id)| id.is_empty_node()) {
            let start = layer.mark();
            {
                let out = layer.buffer();
                for column in [FORM, LEMMA, UPOS, XPOS, FEATS] {
                    out.push(b'\t');
                    out.extend_from_slice(self.column(node, column).as_bytes());
                }
                out.extend_from_slice(b"\t_\t_\t");
            }
            write_deps(layer, node);
            let out = layer.buffer();
            match self.buffers.graph[node] {
                Node::Empty { copy_of, .. } if copy_of != 0 => {
                    out.extend_from_slice(b"\tCopyOf=");
                    crate::conllu::id::push_u32(out, copy_of);
                }
                _ => out.extend_from_slice(b"\t_"),
            }
            layer.end_empty_node(id, start);
        }
    }
}

/// Iterator behind [`SentenceGraph::words_with_relations`]: one relation group after another.
struct RelationWords<'g, 's> {
    graph: &'g SentenceGraph<'s>,
    bits: u64,
    words: &'g [u32],
}

impl Iterator for RelationWords<'_, '_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        loop {
            if let Some((&first, rest)) = self.words.split_first() {
                self.words = rest;
                return Some(first);
            }
            if self.bits == 0 {
                return None;
            }
            let r = self.bits.trailing_zeros() as usize;
            self.bits &= self.bits - 1;
            let start = &self.graph.relation_start;
            self.words =
                &self.graph.buffers.relation_words[start[r] as usize..start[r + 1] as usize];
        }
    }
}

/// Looks up `name` in a FEATS column (`Case=Gen|Number=Sing`), or an attribute in MISC.
/// This runs for every feature test of every candidate node: items are skipped eight bytes
/// at a time ([`find_byte`]), not byte by byte.
pub fn feature_value<'a>(feats: &'a str, name: &str) -> Option<&'a str> {
    let bytes = feats.as_bytes();
    let key = name.as_bytes();
    let mut start = 0;
    loop {
        let item = &bytes[start..];
        if item.len() > key.len() && item[key.len()] == b'=' && item.starts_with(key) {
            let value = start + key.len() + 1;
            let end = find_byte(&bytes[value..], b'|').map_or(bytes.len(), |i| value + i);
            return Some(&feats[value..end]);
        }
        start += find_byte(item, b'|')? + 1;
    }
}

/// The first `needle` in `haystack`, eight bytes per step (a word-at-a-time zero-byte test):
/// FEATS columns are tens of bytes, too short for a call to a vectorised search to pay off.
#[inline]
fn find_byte(haystack: &[u8], needle: u8) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let pattern = ONES * u64::from(needle);
    let mut chunks = haystack.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let x = u64::from_le_bytes(chunk.try_into().expect("chunks of eight")) ^ pattern;
        // The lowest set bit marks the first zero byte of `x` exactly (borrows only run upward).
        let zeros = x.wrapping_sub(ONES) & !x & HIGHS;
        if zeros != 0 {
            return Some(offset + (zeros.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == needle)
        .map(|i| offset + i)
}

#[cfg(test)]
mod tests {
    use super::{feature_value, find_byte};

    /// Every length up to 40, the needle at every position (or none), among bytes that differ
    /// from it by one bit or sit next to it (the cases a word-at-a-time test could confuse).
    #[test]
    fn find_byte_agrees_with_a_byte_scan() {
        for needle in [b'|', 0x00, 0x7f, 0x80, 0xff] {
            let fillers = [
                needle ^ 1,
                needle ^ 0x80,
                needle.wrapping_add(1),
                needle.wrapping_sub(1),
                0x01,
                0xfe,
            ];
            for len in 0..40 {
                for at in 0..=len {
                    for (f, &filler) in fillers.iter().enumerate() {
                        let mut haystack: Vec<u8> = (0..len)
                            .map(|i| {
                                if i % 3 == f % 3 {
                                    filler
                                } else {
                                    fillers[(i + f) % 6]
                                }
                            })
                            .collect();
                        if at < len {
                            haystack[at] = needle;
                            if at + 3 < len {
                                haystack[at + 3] = needle;
                            }
                        }
                        let expected = haystack.iter().position(|&b| b == needle);
                        assert_eq!(
                            find_byte(&haystack, needle),
                            expected,
                            "{haystack:?} {needle}"
                        );
                    }
                }
            }
        }
    }

    /// The item-by-item walk `feature_value` replaced, as a reference.
    fn feature_value_by_items<'a>(feats: &'a str, name: &str) -> Option<&'a str> {
        feats.split('|').find_map(|item| {
            item.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix('='))
        })
    }

    #[test]
    fn feature_lookup_agrees_with_an_item_walk() {
        let columns = [
            "_",
            "Case=Gen|Number[psor]=Sing|NumType=Card|Number=Plur",
            "Animacy=Anim|Aspect=Imp|Gender=Masc|Number=Sing|Polarity=Pos|VerbForm=Fin|Voice=Act",
            "SpaceAfter=No|Translit=Ca=se|CaseX=1|Case=|C=Case",
            "Case=Loc",
            "Case",
            "=Case|Case=Nom",
            "NCase=Acc|Case=Ins",
            "AdpType=Prep|Case=Loc|LId=v-1",
        ];
        let names = [
            "Case",
            "Number",
            "Number[psor]",
            "NumType",
            "C",
            "Voice",
            "Translit",
            "X",
            "CaseX",
            "Polarity",
            "LId",
        ];
        for column in columns {
            for name in names {
                assert_eq!(
                    feature_value(column, name),
                    feature_value_by_items(column, name),
                    "{name} in {column}"
                );
            }
        }
    }

    #[test]
    fn finds_whole_feature_names_only() {
        let feats = "Case=Gen|Number[psor]=Sing|NumType=Card|Number=Plur";
        assert_eq!(feature_value(feats, "Case"), Some("Gen"));
        assert_eq!(feature_value(feats, "Number"), Some("Plur"));
        assert_eq!(feature_value(feats, "Number[psor]"), Some("Sing"));
        assert_eq!(feature_value(feats, "Num"), None);
        assert_eq!(feature_value("_", "Case"), None);
        assert_eq!(feature_value("Case=", "Case"), Some(""));
        // Items and values across the eight-byte steps of the scan.
        let long =
            "Animacy=Anim|Aspect=Imp|Gender=Masc|Number=Sing|Polarity=Pos|VerbForm=Fin|Voice=Act";
        assert_eq!(feature_value(long, "Voice"), Some("Act"));
        assert_eq!(feature_value(long, "VerbForm"), Some("Fin"));
        assert_eq!(feature_value(long, "Polarity"), Some("Pos"));
        assert_eq!(feature_value(long, "Case"), None);
        assert_eq!(
            feature_value("SpaceAfter=No|Translit=ábcdéfgh|X=1", "Translit"),
            Some("ábcdéfgh")
        );
    }
}
