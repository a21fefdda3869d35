//! Writing styles: the presets a user picks (`--preset`), gitmoji, and the instructions they
//! put into the prompt.

mod gitmoji;
mod writing_language;

use thiserror::Error;

pub use gitmoji::{GITMOJIS, Gitmoji, find as find_gitmoji};
pub use writing_language::{language_name, language_section};

/// A named writing style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// What the user picks it by (`--preset`, `preset` in the config).
    pub name: &'static str,
    /// One line for `iris presets`.
    pub description: &'static str,
    /// What the prompt tells Iris about the style.
    pub instructions: &'static str,
    /// Whether gitmoji may be used with it (conventional commits have no room for them).
    pub allows_gitmoji: bool,
}

const CONVENTIONAL: &str = "\
Follow Conventional Commits 1.0.0. The title is `type(scope): subject`:
- type is one of: feat (a new feature), fix (a bug fix), docs (documentation only), style \
(formatting, no change in meaning), refactor (neither fixes a bug nor adds a feature), perf \
(performance), test (adding or correcting tests), build (build system or dependencies), ci \
(CI configuration and scripts), chore (maintenance that touches no source or tests), revert \
(reverts an earlier commit);
- scope is optional: one lowercase noun for the part of the code base changed, such as a \
module or folder name (`feat(parser): ...`); leave it out when the change spans the project;
- subject: imperative mood, lowercase first letter, no trailing period, the whole title at \
most 72 characters;
- a breaking change adds `!` before the colon (`feat(api)!: ...`) and a footer \
`BREAKING CHANGE: <what breaks and what to do>` at the end of the body.
The body, when needed, explains what and why, wrapped at 72 columns. No emoji anywhere.";

const PRESETS: &[Preset] = &[
    Preset {
        name: "default",
        description: "Match the style of the repository's recent commits",
        instructions: "Follow the style of the repository's recent history, which you can read \
with git_log: its mood and tense, capitalization, prefixes (conventional types, scopes, ticket \
ids), title length, and how much the bodies say. Where the history shows no clear style, write \
an imperative title of at most 72 characters and a body that explains what changed and why.",
        allows_gitmoji: true,
    },
    Preset {
        name: "conventional",
        description: "Conventional Commits: type(scope): subject, no emoji",
        instructions: CONVENTIONAL,
        allows_gitmoji: false,
    },
    Preset {
        name: "detailed",
        description: "A thorough body: motivation, approach, notable changes, consequences",
        instructions: "Be thorough. After the title, explain the motivation, the approach taken \
and why, the notable changes as a short bullet list, and the consequences a reader should know \
about (behaviour, performance, compatibility, migrations). Say only what the evidence supports; \
thoroughness is about coverage, not padding.",
        allows_gitmoji: true,
    },
    Preset {
        name: "concise",
        description: "As short as accuracy allows: often a title alone",
        instructions: "Be as brief as accuracy allows. A title alone when it says everything; \
otherwise at most two or three short lines of body. No bullet lists, no restating of what the \
diff already shows, no filler words.",
        allows_gitmoji: true,
    },
    Preset {
        name: "technical",
        description: "Precise and technical: exact identifiers, APIs, invariants",
        instructions: "Be precise and technical. Name the functions, types, modules, algorithms \
and data structures involved, using exact identifiers in backticks. Mention API and behaviour \
changes, error handling, invariants, complexity and performance effects where they matter. \
Prefer the exact term to a paraphrase.",
        allows_gitmoji: true,
    },
    Preset {
        name: "storyteller",
        description: "The change as a short narrative: problem, turn, resolution",
        instructions: "Tell the change as a short story: where the code stood, what problem or \
need appeared, what this change does about it, and where it leaves things. Warm, readable \
prose in complete sentences. The story must stay true: no invented events, motives or \
results; the title still names the change plainly.",
        allows_gitmoji: true,
    },
    Preset {
        name: "formal",
        description: "Formal, professional register for enterprise or regulated projects",
        instructions: "Write in a formal, professional register: complete sentences, no \
contractions, no slang, humour or exclamation marks, a neutral and objective tone. State \
what was changed, the reason, and any impact on users or operations.",
        allows_gitmoji: true,
    },
    Preset {
        name: "cosmic",
        description: "Playful celestial imagery, still accurate",
        instructions: "Be playful and cosmic: weave celestial imagery (stars, orbits, \
constellations, launches, gravity, nebulae) into the wording with a sense of wonder and fun. \
Every statement stays accurate: the imagery decorates the facts and never replaces them, and \
the title still says plainly enough what changed for someone searching the log.",
        allows_gitmoji: true,
    },
];

/// Every preset, `default` first.
pub fn presets() -> &'static [Preset] {
    PRESETS
}

/// The preset with this name (case-insensitive).
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name.trim()))
}

/// A preset name that is not one of [`presets`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "unknown preset `{name}`{}; known presets: {}",
    iris_studio_core::suggest::did_you_mean(&name.to_ascii_lowercase(), known.iter().copied()),
    known.join(", ")
)]
pub struct UnknownPreset {
    /// The name asked for.
    pub name: String,
    /// The names of every preset.
    pub known: Vec<&'static str>,
}

/// The style part of the prompt: the preset's instructions, the gitmoji guidance with the
/// full list when `gitmoji` is on (and the preset allows it), and the user's `extra`
/// instructions, which come last so they win.
pub fn style_instructions(
    preset_name: &str,
    gitmoji: bool,
    extra: &str,
) -> Result<String, UnknownPreset> {
    let chosen = preset(preset_name).ok_or_else(|| UnknownPreset {
        name: preset_name.to_string(),
        known: PRESETS.iter().map(|p| p.name).collect(),
    })?;
    let mut out = format!(
        "Writing style ({}):\n{}\n",
        chosen.name, chosen.instructions
    );
    if gitmoji && chosen.allows_gitmoji {
        out.push_str(
            "\nGitmoji: choose the one gitmoji below that best fits the main purpose of the \
change. In a commit message put the emoji character in the `emoji` field, never in the title; \
elsewhere it may open the title. The list (emoji, code, meaning):\n",
        );
        out.push_str(&gitmoji::render_list());
    } else {
        out.push_str("\nUse no emoji: leave any `emoji` field null.\n");
    }
    let extra = extra.trim();
    if !extra.is_empty() {
        out.push_str("\nAdditional instructions from the user (they take precedence):\n");
        out.push_str(extra);
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_has_a_name_a_one_line_description_and_instructions() {
        let names: Vec<&str> = presets().iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "default",
                "conventional",
                "detailed",
                "concise",
                "technical",
                "storyteller",
                "formal",
                "cosmic"
            ]
        );
        for p in presets() {
            assert!(
                !p.description.contains('\n') && p.description.len() < 80,
                "{}",
                p.name
            );
            assert!(p.instructions.len() > 100, "{}", p.name);
        }
    }

    #[test]
    fn unknown_preset_lists_the_known_ones() {
        let err = style_instructions("fancy", false, "").err();
        let text = err.map(|e| e.to_string()).unwrap_or_default();
        assert!(
            text.starts_with("unknown preset `fancy`; known presets: default, conventional"),
            "{text}"
        );
        assert!(text.contains("cosmic"));
    }

    #[test]
    fn conventional_never_includes_emoji() {
        let text = style_instructions("Conventional", true, "").unwrap_or_default();
        assert!(text.contains("`type(scope): subject`"));
        for kind in [
            "feat", "fix", "docs", "style", "refactor", "perf", "test", "build", "ci", "chore",
            "revert",
        ] {
            assert!(text.contains(&format!("{kind} (")), "{kind}");
        }
        assert!(text.contains("Use no emoji"));
        assert!(
            text.chars().all(|c| (c as u32) < 0x2000),
            "an emoji in the conventional instructions"
        );
        assert!(!text.contains(":sparkles:"));
    }

    #[test]
    fn gitmoji_on_renders_the_full_list_and_off_forbids_emoji() {
        let on = style_instructions("default", true, "").unwrap_or_default();
        assert!(on.contains("git_log"));
        for code in [
            ":sparkles:",
            ":bug:",
            ":memo:",
            ":recycle:",
            ":zap:",
            ":lock:",
        ] {
            assert!(on.contains(code), "{code}");
        }
        for g in GITMOJIS {
            assert!(on.contains(&format!("{} {} {}", g.emoji, g.code, g.description)));
        }
        let off = style_instructions("default", false, "").unwrap_or_default();
        assert!(!off.contains(":sparkles:") && off.contains("Use no emoji"));
    }

    #[test]
    fn extra_instructions_come_last() {
        let text =
            style_instructions("cosmic", false, "  Mention the ticket id.  ").unwrap_or_default();
        assert!(text.contains("celestial"));
        assert!(
            text.ends_with("(they take precedence):\nMention the ticket id.\n"),
            "{text}"
        );
    }
}
