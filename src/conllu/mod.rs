//! CoNLL-U input and output, exact to the byte.
//!
//! The reader hands out sentences as raw blocks; parsing keeps spans into the block rather than
//! copies, and the writer reassembles the block with only DEPS and empty nodes replaced. This is
//! what makes "every column except DEPS is preserved byte for byte" hold by construction.

pub mod id;
pub mod input;
pub mod limits;
pub mod output;
pub mod reader;
pub mod sentence;
pub mod writer;

pub use id::NodeId;
pub use limits::Limits;
pub use reader::{read_error_message, BlockReader, ChunkReader, RawBlock, TooLarge};
pub use sentence::{LineKind, ParseError, Sentence, Span, Token};
pub use writer::{write_sentence, EnhancedLayer};
