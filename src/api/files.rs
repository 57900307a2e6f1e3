//! Inputs and outputs as every eudify command treats them: `-` is stdin, gzip is recognised by
//! its first bytes, an input is named by its path in messages, and an output file is replaced
//! only when the run succeeds; no line, comment block or sentence is read past its [`Limits`].

pub use crate::conllu::input::{display_name, is_gzip_file, is_stdin, open};
pub use crate::conllu::output::FileOutput;
pub use crate::conllu::Limits;
