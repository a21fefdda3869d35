//! Which key triggers which [`Command`]: defaults that lazygit and gitui users expect, and a
//! user file (`<config dir>/keymap.toml`) that overrides only the keys it names.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use serde::Deserialize;
use serde::de::value::{Error as ValueError, StrDeserializer};
use thiserror::Error;
use toml_edit::Document;

use super::command::Command;

use iris_studio_config::file::{key_line, line_of};

/// The keys everywhere but in a text input.
const DEFAULT_GLOBAL: &[(&str, Command)] = &[
    ("q", Command::Quit),
    ("ctrl-c", Command::Quit),
    ("?", Command::Help),
    ("f1", Command::Help),
    ("tab", Command::NextPane),
    ("shift-tab", Command::PrevPane),
    ("k", Command::Up),
    ("up", Command::Up),
    ("j", Command::Down),
    ("down", Command::Down),
    ("pageup", Command::PageUp),
    ("ctrl-u", Command::PageUp),
    ("pagedown", Command::PageDown),
    ("ctrl-d", Command::PageDown),
    ("g", Command::Top),
    ("home", Command::Top),
    ("G", Command::Bottom),
    ("end", Command::Bottom),
    ("enter", Command::Select),
    ("esc", Command::Back),
    ("ctrl-g", Command::Generate),
    ("/", Command::OpenChat),
    ("s", Command::StageFile),
    ("u", Command::UnstageFile),
    ("space", Command::StageHunk),
    ("S", Command::StageAll),
    ("U", Command::UnstageAll),
    ("c", Command::Commit),
    ("A", Command::ToggleAmend),
    ("N", Command::ToggleNoVerify),
    ("ctrl-z", Command::UndoVersion),
    ("ctrl-y", Command::RedoVersion),
    ("n", Command::NextHunk),
    ("p", Command::PrevHunk),
    ("h", Command::ScrollLeft),
    ("left", Command::ScrollLeft),
    ("l", Command::ScrollRight),
    ("right", Command::ScrollRight),
    ("r", Command::Reword),
    ("[", Command::PrevLayer),
    ("]", Command::NextLayer),
    ("ctrl-r", Command::Refresh),
    ("f5", Command::Refresh),
    ("R", Command::PickRange),
    ("v", Command::SelectLines),
    ("w", Command::AskWhy),
    ("i", Command::FileIntent),
    ("z", Command::Zoom),
    ("+", Command::Zoom),
    ("|", Command::SideBySide),
    ("e", Command::EditExternal),
    ("I", Command::Setup),
    ("alt-i", Command::Setup),
    ("y", Command::Copy),
    ("P", Command::Publish),
    ("$", Command::ShowRequest),
    ("a", Command::Alternatives),
    ("x", Command::Split),
    ("f", Command::ShowUnsure),
    ("d", Command::DismissFinding),
    ("1", Command::ModeExplore),
    ("2", Command::ModeCommit),
    ("3", Command::ModeReview),
    ("4", Command::ModePr),
    ("5", Command::ModeChangelog),
    ("6", Command::ModeReleaseNotes),
];

/// The keys while a text editor or the chat input has focus: plain letters type text, and the
/// editor keeps its own ctrl-u undo, ctrl-r redo, ctrl-c copy, ctrl-y paste.
const DEFAULT_EDITING: &[(&str, Command)] = &[
    ("esc", Command::Back),
    ("tab", Command::NextPane),
    ("shift-tab", Command::PrevPane),
    ("f1", Command::Help),
    ("ctrl-g", Command::Generate),
    ("ctrl-s", Command::Commit),
    ("alt-z", Command::UndoVersion),
    ("alt-y", Command::RedoVersion),
    ("alt-e", Command::EditExternal),
    // alt-f is the text editor's word forward.
    ("alt-o", Command::Zoom),
    ("alt-i", Command::Setup),
    ("alt-c", Command::Copy),
    ("alt-a", Command::Alternatives),
];

/// A keymap file that cannot be used; the message names the file, the line and the key.
#[derive(Debug, Error)]
#[error("{0}")]
pub struct KeymapError(pub String);

/// Where a key is pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyContext {
    /// Anywhere no text input has focus: plain letters are commands.
    Global,
    /// A text editor or the chat input has focus.
    Editing,
}

impl KeyContext {
    /// Both contexts, to look one up by its table name or to search all of them.
    pub const ALL: [KeyContext; 2] = [KeyContext::Global, KeyContext::Editing];

    /// The table that configures it in a keymap file.
    pub fn table(self) -> &'static str {
        match self {
            KeyContext::Global => "global",
            KeyContext::Editing => "editing",
        }
    }
}

/// A key with its modifiers, normalised so that terminals that report shift differently agree:
/// a character carries its own case (`G`, never shift-g), and shift-tab is `BackTab`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyChord {
    code: KeyCode,
    modifiers: KeyModifiers,
}

impl KeyChord {
    /// The chord of `code` with `modifiers`, shift folded into the character's case and into
    /// `BackTab`.
    pub fn new(code: KeyCode, modifiers: KeyModifiers) -> KeyChord {
        let mut modifiers = modifiers;
        let shift = modifiers.contains(KeyModifiers::SHIFT);
        let code = match code {
            KeyCode::Char(c) => {
                modifiers.remove(KeyModifiers::SHIFT);
                KeyCode::Char(if shift { c.to_ascii_uppercase() } else { c })
            }
            KeyCode::BackTab => {
                modifiers.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            KeyCode::Tab if shift => {
                modifiers.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            other => other,
        };
        KeyChord { code, modifiers }
    }

    /// The key, a character already in its shifted case.
    pub fn code(self) -> KeyCode {
        self.code
    }

    /// Ctrl, alt and the like; shift only on keys that are not characters or tab.
    pub fn modifiers(self) -> KeyModifiers {
        self.modifiers
    }

    /// Parses `ctrl-g`, `alt-z`, `shift-tab`, `enter`, `space`, `f5`, `?`, `G`, `pageup`.
    /// The error is the words a keymap file's problem is reported in, at start (it never
    /// reaches the reducer: nothing acts on its kind).
    pub fn parse(text: &str) -> Result<KeyChord, String> {
        let mut rest = text.trim();
        let mut modifiers = KeyModifiers::NONE;
        loop {
            let lower = rest.to_ascii_lowercase();
            let found = MODIFIER_NAMES
                .into_iter()
                .map(|(modifier, prefix)| (prefix, modifier))
                .find(|(prefix, _)| lower.starts_with(prefix) && lower.len() > prefix.len());
            let Some((prefix, modifier)) = found else {
                break;
            };
            modifiers |= modifier;
            rest = &rest[prefix.len()..];
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_control() => KeyCode::Char(c),
            _ => named_key(&rest.to_ascii_lowercase()).ok_or_else(|| {
                format!(
                    "`{text}` is not a key; write a character or a name such as enter, esc, \
                     tab, space, backspace, up, pageup, home, f5, with ctrl-, alt- or shift- \
                     before it"
                )
            })?,
        };
        Ok(KeyChord::new(code, modifiers))
    }

    /// A key terminals send as another one (ctrl-i is tab): binding it is a surprise.
    fn alias(self) -> Option<&'static str> {
        if self.modifiers != KeyModifiers::CONTROL {
            return None;
        }
        match self.code {
            KeyCode::Char('i') => Some("tab"),
            KeyCode::Char('m') => Some("enter"),
            KeyCode::Char('h') => Some("backspace"),
            KeyCode::Char('[') => Some("esc"),
            _ => None,
        }
    }

    /// A key that types a character in a text input.
    fn types_text(self) -> bool {
        matches!(self.code, KeyCode::Char(_)) && self.modifiers.is_empty()
    }
}

impl From<KeyEvent> for KeyChord {
    fn from(event: KeyEvent) -> KeyChord {
        KeyChord::new(event.code, event.modifiers)
    }
}

impl fmt::Display for KeyChord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (modifier, prefix) in MODIFIER_NAMES {
            if self.modifiers.contains(modifier) {
                f.write_str(prefix)?;
            }
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::F(n) => write!(f, "f{n}"),
            code => match NAMED_KEYS.iter().find(|(_, named)| *named == code) {
                Some((name, _)) => f.write_str(name),
                None => write!(f, "{}", format!("{code:?}").to_ascii_lowercase()),
            },
        }
    }
}

/// Modifier prefixes in files, in the order they are shown.
const MODIFIER_NAMES: [(KeyModifiers, &str); 6] = [
    (KeyModifiers::CONTROL, "ctrl-"),
    (KeyModifiers::ALT, "alt-"),
    (KeyModifiers::SHIFT, "shift-"),
    (KeyModifiers::SUPER, "super-"),
    (KeyModifiers::HYPER, "hyper-"),
    (KeyModifiers::META, "meta-"),
];

/// Key names in files, the first of each code being how it is shown.
const NAMED_KEYS: &[(&str, KeyCode)] = &[
    ("enter", KeyCode::Enter),
    ("return", KeyCode::Enter),
    ("esc", KeyCode::Esc),
    ("escape", KeyCode::Esc),
    ("tab", KeyCode::Tab),
    ("shift-tab", KeyCode::BackTab),
    ("backtab", KeyCode::BackTab),
    ("space", KeyCode::Char(' ')),
    ("backspace", KeyCode::Backspace),
    ("delete", KeyCode::Delete),
    ("del", KeyCode::Delete),
    ("insert", KeyCode::Insert),
    ("home", KeyCode::Home),
    ("end", KeyCode::End),
    ("pageup", KeyCode::PageUp),
    ("pagedown", KeyCode::PageDown),
    ("up", KeyCode::Up),
    ("down", KeyCode::Down),
    ("left", KeyCode::Left),
    ("right", KeyCode::Right),
];

fn named_key(name: &str) -> Option<KeyCode> {
    if let Some(n) = name.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
        return (1..=24).contains(&n).then_some(KeyCode::F(n));
    }
    NAMED_KEYS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, code)| *code)
}

/// A command's name in a keymap file (`generate`, `mode_release_notes`).
pub fn command_name(command: Command) -> String {
    serde_json::to_value(command)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn command_by_name(name: &str) -> Option<Command> {
    Command::deserialize(StrDeserializer::<ValueError>::new(name)).ok()
}

/// The keys of the global context and of the editing context.
#[derive(Debug, Clone, PartialEq)]
pub struct Keymap {
    global: HashMap<KeyChord, Command>,
    editing: HashMap<KeyChord, Command>,
}

impl Default for Keymap {
    fn default() -> Keymap {
        let table = |entries: &[(&str, Command)]| {
            entries
                .iter()
                .filter_map(|(chord, command)| Some((KeyChord::parse(chord).ok()?, *command)))
                .collect()
        };
        Keymap {
            global: table(DEFAULT_GLOBAL),
            editing: table(DEFAULT_EDITING),
        }
    }
}

impl Keymap {
    fn map(&self, context: KeyContext) -> &HashMap<KeyChord, Command> {
        match context {
            KeyContext::Global => &self.global,
            KeyContext::Editing => &self.editing,
        }
    }

    /// The command a key press triggers; key releases trigger none.
    pub fn lookup(&self, context: KeyContext, key: KeyEvent) -> Option<Command> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        self.map(context).get(&KeyChord::from(key)).copied()
    }

    /// Binds a chord to a command, or unbinds it with `None`.
    pub fn bind(&mut self, context: KeyContext, chord: KeyChord, command: Option<Command>) {
        let map = match context {
            KeyContext::Global => &mut self.global,
            KeyContext::Editing => &mut self.editing,
        };
        match command {
            Some(command) => map.insert(chord, command),
            None => map.remove(&chord),
        };
    }

    /// The chords of a command, plain keys first.
    pub fn chords(&self, context: KeyContext, command: Command) -> Vec<KeyChord> {
        let mut chords: Vec<KeyChord> = self
            .map(context)
            .iter()
            .filter(|(_, c)| **c == command)
            .map(|(chord, _)| *chord)
            .collect();
        chords.sort_by_key(|chord| {
            let label = chord.to_string();
            (chord.modifiers.bits().count_ones(), label.len(), label)
        });
        chords
    }

    /// How to show a command's first key in a hint (`? help`).
    pub fn label(&self, context: KeyContext, command: Command) -> Option<String> {
        self.chords(context, command)
            .first()
            .map(KeyChord::to_string)
    }

    /// One row per bound command, in the order of [`Command::ALL`], with its keys joined:
    /// `("j / down", Command::Down)`.
    pub fn help(&self, context: KeyContext) -> Vec<(String, Command)> {
        Command::ALL
            .iter()
            .filter_map(|&command| {
                let labels: Vec<String> = self
                    .chords(context, command)
                    .iter()
                    .map(KeyChord::to_string)
                    .collect();
                (!labels.is_empty()).then(|| (labels.join(" / "), command))
            })
            .collect()
    }

    /// The defaults with the user's `<user_dir>/keymap.toml` over them, and warnings about keys
    /// that will surprise. No directory or no file: the defaults. (The file is read through
    /// iris-config; [`Keymap::from_file`] is handed it.)
    pub fn load(user_dir: Option<&Path>) -> Result<(Keymap, Vec<String>), KeymapError> {
        let file = iris_studio_config::studio_files::keymap(user_dir).map_err(KeymapError)?;
        Keymap::from_file(file.as_ref())
    }

    /// The defaults with the user's keymap file (as the shell read it) over them, and
    /// warnings about keys that will surprise; no file: the defaults.
    pub fn from_file(
        file: Option<&iris_studio_config::studio_files::UserFile>,
    ) -> Result<(Keymap, Vec<String>), KeymapError> {
        match file {
            Some(file) => Keymap::default().with_overrides(&file.text, &file.shown),
            None => Ok((Keymap::default(), Vec::new())),
        }
    }

    /// This keymap with a keymap file's `[global]` and `[editing]` entries over it
    /// (`"ctrl-g" = "generate"`, `"q" = "none"`); `file` names it in messages.
    pub fn with_overrides(
        mut self,
        text: &str,
        file: &str,
    ) -> Result<(Keymap, Vec<String>), KeymapError> {
        let doc = Document::parse(text).map_err(|e| {
            let line = line_of(text, e.span().map_or(0, |s| s.start));
            KeymapError(format!(
                "{file} line {line}: {}",
                e.message().trim().replace('\n', "; ")
            ))
        })?;
        let mut warnings = Vec::new();
        let root = doc.as_table();
        for (name, item) in root.iter() {
            let line = key_line(text, root, name, item);
            let context = KeyContext::ALL.into_iter().find(|c| c.table() == name);
            let (Some(context), Some(table)) = (context, item.as_table_like()) else {
                return Err(KeymapError(format!(
                    "{file} line {line}: `{name}`: a keymap file has the tables [global] and \
                     [editing]"
                )));
            };
            let mut seen: HashMap<KeyChord, (String, usize)> = HashMap::new();
            for (key, value) in table.iter() {
                let line = key_line(text, table, key, value);
                let at = format!("{file} line {line}: [{name}] key `{key}`");
                let chord = KeyChord::parse(key).map_err(|e| KeymapError(format!("{at}: {e}")))?;
                let command = match value.as_str() {
                    Some("none") => None,
                    Some(command) => Some(command_by_name(command).ok_or_else(|| {
                        KeymapError(format!(
                            "{at}: unknown command `{command}`; commands: none, {}",
                            Command::ALL.map(command_name).join(", ")
                        ))
                    })?),
                    None => {
                        return Err(KeymapError(format!(
                            "{at}: expected a command name such as \"generate\", or \"none\""
                        )));
                    }
                };
                if let Some((earlier, earlier_line)) = seen.insert(chord, (key.to_owned(), line)) {
                    warnings.push(format!(
                        "{at}: the same key as `{earlier}` on line {earlier_line}; this one wins"
                    ));
                }
                if let Some(alias) = chord.alias() {
                    warnings.push(format!("{at}: most terminals send it as {alias}"));
                }
                if context == KeyContext::Editing && command.is_some() && chord.types_text() {
                    warnings.push(format!("{at}: it will no longer type text in editors"));
                }
                self.bind(context, chord, command);
            }
        }
        warnings.extend(self.lost_commands());
        Ok((self, warnings))
    }

    /// Commands the defaults reach that no key reaches any more.
    fn lost_commands(&self) -> Vec<String> {
        let defaults = Keymap::default();
        Command::ALL
            .into_iter()
            .filter(|&command| {
                let bound = |map: &Keymap| {
                    KeyContext::ALL
                        .iter()
                        .any(|&c| map.map(c).values().any(|v| *v == command))
                };
                bound(&defaults) && !bound(self)
            })
            .map(|command| format!("no key is left for `{}`", command_name(command)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    fn chord(text: &str) -> KeyChord {
        KeyChord::parse(text).unwrap()
    }

    fn overrides(text: &str) -> Result<(Keymap, Vec<String>), KeymapError> {
        Keymap::default().with_overrides(text, "keymap.toml")
    }

    #[test]
    fn defaults_parse_and_cover_the_usual_keys() {
        let map = Keymap::default();
        assert_eq!(map.global.len(), DEFAULT_GLOBAL.len());
        assert_eq!(map.editing.len(), DEFAULT_EDITING.len());
        let global = |code, modifiers| map.lookup(KeyContext::Global, key(code, modifiers));
        let none = KeyModifiers::NONE;
        assert_eq!(global(KeyCode::Char('j'), none), Some(Command::Down));
        assert_eq!(global(KeyCode::Down, none), Some(Command::Down));
        assert_eq!(global(KeyCode::Char('k'), none), Some(Command::Up));
        assert_eq!(global(KeyCode::Tab, none), Some(Command::NextPane));
        assert_eq!(
            global(KeyCode::BackTab, KeyModifiers::SHIFT),
            Some(Command::PrevPane)
        );
        assert_eq!(global(KeyCode::Enter, none), Some(Command::Select));
        assert_eq!(global(KeyCode::Esc, none), Some(Command::Back));
        assert_eq!(global(KeyCode::Char('?'), none), Some(Command::Help));
        assert_eq!(global(KeyCode::Char('q'), none), Some(Command::Quit));
        assert_eq!(global(KeyCode::Char('$'), none), Some(Command::ShowRequest));
        assert_eq!(
            global(KeyCode::Char('g'), KeyModifiers::CONTROL),
            Some(Command::Generate)
        );
        assert_eq!(
            global(KeyCode::Char('6'), none),
            Some(Command::ModeReleaseNotes)
        );
        assert_eq!(global(KeyCode::Char('X'), none), None);
        // Every command has a key.
        for command in Command::ALL {
            assert!(
                map.label(KeyContext::Global, command).is_some(),
                "{command:?}"
            );
        }
        // In an editor, letters type text.
        let editing = |code, modifiers| map.lookup(KeyContext::Editing, key(code, modifiers));
        assert_eq!(editing(KeyCode::Char('q'), none), None);
        assert_eq!(editing(KeyCode::Char('j'), none), None);
        assert_eq!(editing(KeyCode::Esc, none), Some(Command::Back));
        assert_eq!(
            editing(KeyCode::Char('z'), KeyModifiers::ALT),
            Some(Command::UndoVersion)
        );
        assert!(map.editing.keys().all(|c| !c.types_text()));
    }

    #[test]
    fn key_releases_trigger_nothing() {
        let mut release = key(KeyCode::Char('q'), KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        assert_eq!(Keymap::default().lookup(KeyContext::Global, release), None);
    }

    #[test]
    fn uppercase_is_the_same_with_or_without_shift_reported() {
        let map = Keymap::default();
        for modifiers in [KeyModifiers::NONE, KeyModifiers::SHIFT] {
            let event = key(KeyCode::Char('G'), modifiers);
            assert_eq!(map.lookup(KeyContext::Global, event), Some(Command::Bottom));
        }
        let shifted_lower = key(KeyCode::Char('g'), KeyModifiers::SHIFT);
        assert_eq!(
            map.lookup(KeyContext::Global, shifted_lower),
            Some(Command::Bottom)
        );
        let question = key(KeyCode::Char('?'), KeyModifiers::SHIFT);
        assert_eq!(
            map.lookup(KeyContext::Global, question),
            Some(Command::Help)
        );
        let shift_tab = key(KeyCode::Tab, KeyModifiers::SHIFT);
        assert_eq!(
            map.lookup(KeyContext::Global, shift_tab),
            Some(Command::PrevPane)
        );
        assert_eq!(chord("shift-g"), chord("G"));
        assert_eq!(
            chord("ctrl-shift-g"),
            KeyChord::new(KeyCode::Char('G'), KeyModifiers::CONTROL)
        );
        assert_ne!(chord("g"), chord("G"));
        let super_g = key(KeyCode::Char('g'), KeyModifiers::SUPER);
        assert_eq!(map.lookup(KeyContext::Global, super_g), None);
    }

    #[test]
    fn chords_parse_and_print_round_trip() {
        let cases = [
            ("ctrl-g", KeyCode::Char('g'), KeyModifiers::CONTROL),
            ("alt-z", KeyCode::Char('z'), KeyModifiers::ALT),
            ("shift-tab", KeyCode::BackTab, KeyModifiers::NONE),
            ("ctrl-shift-tab", KeyCode::BackTab, KeyModifiers::CONTROL),
            ("enter", KeyCode::Enter, KeyModifiers::NONE),
            ("esc", KeyCode::Esc, KeyModifiers::NONE),
            ("space", KeyCode::Char(' '), KeyModifiers::NONE),
            ("f5", KeyCode::F(5), KeyModifiers::NONE),
            ("?", KeyCode::Char('?'), KeyModifiers::NONE),
            ("G", KeyCode::Char('G'), KeyModifiers::NONE),
            ("pageup", KeyCode::PageUp, KeyModifiers::NONE),
            ("shift-up", KeyCode::Up, KeyModifiers::SHIFT),
            (
                "ctrl-alt-delete",
                KeyCode::Delete,
                KeyModifiers::CONTROL | KeyModifiers::ALT,
            ),
            ("ctrl--", KeyCode::Char('-'), KeyModifiers::CONTROL),
            ("-", KeyCode::Char('-'), KeyModifiers::NONE),
            ("super-s", KeyCode::Char('s'), KeyModifiers::SUPER),
        ];
        for (text, code, modifiers) in cases {
            let parsed = chord(text);
            assert_eq!(parsed, KeyChord::new(code, modifiers), "{text}");
            assert_eq!(parsed.to_string(), text);
            assert_eq!(chord(&parsed.to_string()), parsed);
        }
        assert_eq!(
            chord("Ctrl-G"),
            KeyChord::new(KeyCode::Char('G'), KeyModifiers::CONTROL)
        );
        assert_eq!(chord("ESCAPE").to_string(), "esc");
        assert_eq!(chord("backtab").to_string(), "shift-tab");
        assert_eq!(chord("shift-?").to_string(), "?");
        for bad in ["", "ctrl-", "win-x", "f0", "f25", "pgupp", "ctrl-enterx"] {
            assert!(KeyChord::parse(bad).is_err(), "{bad}");
        }
        for (text, _) in DEFAULT_GLOBAL.iter().chain(DEFAULT_EDITING) {
            assert_eq!(chord(text).to_string(), *text);
        }
    }

    #[test]
    fn an_override_keeps_the_other_keys() {
        let (map, warnings) =
            overrides("[global]\n\"ctrl-g\" = \"open_chat\"\nX = \"generate\"\n").unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(map.global.get(&chord("ctrl-g")), Some(&Command::OpenChat));
        assert_eq!(map.global.get(&chord("X")), Some(&Command::Generate));
        assert_eq!(map.global.get(&chord("/")), Some(&Command::OpenChat));
        assert_eq!(map.global.len(), DEFAULT_GLOBAL.len() + 1);
        assert_eq!(map.editing, Keymap::default().editing);
    }

    #[test]
    fn none_unbinds_and_a_lost_command_is_a_warning() {
        let (map, warnings) =
            overrides("[global]\nq = \"none\"\n\"ctrl-c\" = \"none\"\n[editing]\nesc = \"none\"\n")
                .unwrap();
        assert_eq!(
            map.lookup(
                KeyContext::Global,
                key(KeyCode::Char('q'), KeyModifiers::NONE)
            ),
            None
        );
        assert_eq!(
            map.lookup(KeyContext::Editing, key(KeyCode::Esc, KeyModifiers::NONE)),
            None
        );
        assert_eq!(map.global.get(&chord("esc")), Some(&Command::Back));
        assert_eq!(warnings, ["no key is left for `quit`"]);
        assert!(
            !map.help(KeyContext::Global)
                .iter()
                .any(|(_, c)| *c == Command::Quit)
        );
    }

    #[test]
    fn surprising_keys_are_warnings() {
        let text = "[global]\nG = \"top\"\n\"shift-g\" = \"bottom\"\n\"ctrl-i\" = \"help\"\n\
                    [editing]\nq = \"quit\"\n";
        let (map, warnings) = overrides(text).unwrap();
        assert_eq!(map.global.get(&chord("G")), Some(&Command::Bottom));
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings[0].starts_with(
            "keymap.toml line 3: [global] key `shift-g`: the same key as `G` on line 2"
        ));
        assert!(warnings[1].contains("line 4") && warnings[1].contains("as tab"));
        assert!(warnings[2].contains("line 6") && warnings[2].contains("no longer type text"));
    }

    #[test]
    fn errors_name_the_file_the_line_and_the_key() {
        let cases = [
            (
                "[global]\nj = \"down\"\nx = \"generat\"\n",
                "keymap.toml line 3: [global] key `x`: unknown command `generat`",
            ),
            (
                "[editing]\n\n\"ctrl-foo\" = \"generate\"\n",
                "keymap.toml line 3: [editing] key `ctrl-foo`: `ctrl-foo` is not a key",
            ),
            (
                "[global]\nx = 1\n",
                "keymap.toml line 2: [global] key `x`: expected a command name",
            ),
            ("[normal]\nx = \"quit\"\n", "keymap.toml line 1: `normal`"),
            ("global = 3\n", "keymap.toml line 1: `global`"),
            ("[global]\nx = \n", "keymap.toml line 2"),
        ];
        for (text, expected) in cases {
            let err = overrides(text).unwrap_err().to_string();
            assert!(err.starts_with(expected), "{err}");
        }
    }

    #[test]
    fn load_reads_the_user_file_or_keeps_the_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let (map, warnings) = Keymap::load(Some(dir.path())).unwrap();
        assert_eq!((map, warnings.len()), (Keymap::default(), 0));
        assert_eq!(Keymap::load(None).unwrap().0, Keymap::default());
        std::fs::write(dir.path().join("keymap.toml"), "[global]\nx = \"quitt\"\n").unwrap();
        let err = Keymap::load(Some(dir.path())).unwrap_err().to_string();
        let file = iris_studio_config::display_path(&dir.path().join("keymap.toml"));
        assert!(
            err.starts_with(&format!("{file} line 2: [global] key `x`")),
            "{err}"
        );
        std::fs::write(dir.path().join("keymap.toml"), "[global]\nx = \"quit\"\n").unwrap();
        let (map, _) = Keymap::load(Some(dir.path())).unwrap();
        assert_eq!(map.global.get(&chord("x")), Some(&Command::Quit));
    }

    #[test]
    fn help_lists_each_command_once_with_its_keys() {
        let map = Keymap::default();
        let help = map.help(KeyContext::Global);
        assert_eq!(help.len(), Command::ALL.len());
        assert_eq!(help[0], ("q / ctrl-c".to_owned(), Command::Quit));
        assert_eq!(help[1], ("? / f1".to_owned(), Command::Help));
        assert!(help.contains(&("j / down".to_owned(), Command::Down)));
        assert!(help.contains(&("G / end".to_owned(), Command::Bottom)));
        let editing = map.help(KeyContext::Editing);
        assert_eq!(editing.len(), DEFAULT_EDITING.len());
        assert_eq!(
            map.label(KeyContext::Editing, Command::Help).as_deref(),
            Some("f1")
        );
    }

    #[test]
    fn command_names_match_the_file_syntax() {
        for command in Command::ALL {
            assert_eq!(command_by_name(&command_name(command)), Some(command));
        }
        assert_eq!(command_name(Command::OpenChat), "open_chat");
        assert_eq!(command_by_name("OpenChat"), None);
    }

    #[test]
    fn the_example_file_loads_cleanly_and_names_every_command() {
        let text = include_str!("../../../assets/keymap.example.toml");
        let (map, warnings) = overrides(text).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(map.global.len() >= DEFAULT_GLOBAL.len());
        for command in Command::ALL {
            let name = format!("\"{}\"", command_name(command));
            assert!(text.contains(&name), "the example does not mention {name}");
        }
    }
}
