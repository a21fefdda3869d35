//! The studio by feature: each folder holds a feature's messages, effects, update and drawing.

pub mod changes;
pub mod chat;
pub mod diff;
pub mod editor;
pub mod explore;
pub mod external;
pub mod findings;
pub mod generate;
pub mod intent;
pub mod overlays;
pub mod publish;
pub mod range;
pub mod reword;
pub mod sessions;
pub mod setup;
pub mod split;
pub mod stack;
pub mod why;

/// Each feature's messages and effects by one name, for the switchboards and the shell.
pub mod msgs {
    pub use super::changes::Fx as ChangesFx;
    pub use super::changes::Msg as ChangesMsg;
    pub use super::chat::Fx as ChatFx;
    pub use super::chat::Msg as ChatMsg;
    pub use super::diff::Fx as DiffFx;
    pub use super::diff::Msg as DiffMsg;
    pub use super::editor::Fx as EditorFx;
    pub use super::editor::Msg as EditorMsg;
    pub use super::explore::Fx as ExploreFx;
    pub use super::explore::Msg as ExploreMsg;
    pub use super::external::Fx as ExternalFx;
    pub use super::external::Msg as ExternalMsg;
    pub use super::findings::Fx as FindingsFx;
    pub use super::findings::Msg as FindingsMsg;
    pub use super::generate::Fx as GenerateFx;
    pub use super::generate::Msg as GenerateMsg;
    pub use super::intent::Fx as IntentFx;
    pub use super::intent::Msg as IntentMsg;
    pub use super::publish::Fx as PublishFx;
    pub use super::publish::Msg as PublishMsg;
    pub use super::range::Fx as RangeFx;
    pub use super::range::Msg as RangeMsg;
    pub use super::reword::Fx as RewordFx;
    pub use super::reword::Msg as RewordMsg;
    pub use super::sessions::Fx as SessionsFx;
    pub use super::sessions::Msg as SessionsMsg;
    pub use super::setup::Fx as SetupFx;
    pub use super::setup::Msg as SetupMsg;
    pub use super::split::Fx as SplitFx;
    pub use super::split::Msg as SplitMsg;
    pub use super::stack::Fx as StackFx;
    pub use super::stack::Msg as StackMsg;
    pub use super::why::Fx as WhyFx;
    pub use super::why::Msg as WhyMsg;
}
