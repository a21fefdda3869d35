//! What the faces tell the user, the same from each (the command line, `iris mcp`, `iris
//! eval` and the studio's shell stand side by side and import none of each other): exit
//! codes and usage errors ([`exit`]), untrusted text shown and a withheld secret said
//! ([`said`]), the request a dry run kept ([`preview`]), a message checked against the
//! commit rules ([`commit_rules`]), and what a written artifact warns about ([`written`]).

pub mod commit_rules;
pub mod exit;
pub mod preview;
pub mod said;
pub mod written;
