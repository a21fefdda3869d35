//! The gitmoji list of gitmoji.dev: one emoji per intention of a commit.

/// One gitmoji: the emoji, its shortcode and what a commit using it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gitmoji {
    /// The emoji character (`🐛`).
    pub emoji: &'static str,
    /// Its shortcode (`:bug:`).
    pub code: &'static str,
    /// What a commit using it does (`Fix a bug.`).
    pub description: &'static str,
}

const fn g(emoji: &'static str, code: &'static str, description: &'static str) -> Gitmoji {
    Gitmoji {
        emoji,
        code,
        description,
    }
}

/// Every gitmoji, in gitmoji.dev's order.
pub const GITMOJIS: &[Gitmoji] = &[
    g("🎨", ":art:", "Improve structure / format of the code."),
    g("⚡️", ":zap:", "Improve performance."),
    g("🔥", ":fire:", "Remove code or files."),
    g("🐛", ":bug:", "Fix a bug."),
    g("🚑️", ":ambulance:", "Critical hotfix."),
    g("✨", ":sparkles:", "Introduce new features."),
    g("📝", ":memo:", "Add or update documentation."),
    g("🚀", ":rocket:", "Deploy stuff."),
    g("💄", ":lipstick:", "Add or update the UI and style files."),
    g("🎉", ":tada:", "Begin a project."),
    g("✅", ":white_check_mark:", "Add, update, or pass tests."),
    g("🔒️", ":lock:", "Fix security issues."),
    g("🔐", ":closed_lock_with_key:", "Add or update secrets."),
    g("🔖", ":bookmark:", "Release / Version tags."),
    g("🚨", ":rotating_light:", "Fix compiler / linter warnings."),
    g("🚧", ":construction:", "Work in progress."),
    g("💚", ":green_heart:", "Fix CI Build."),
    g("⬇️", ":arrow_down:", "Downgrade dependencies."),
    g("⬆️", ":arrow_up:", "Upgrade dependencies."),
    g("📌", ":pushpin:", "Pin dependencies to specific versions."),
    g(
        "👷",
        ":construction_worker:",
        "Add or update CI build system.",
    ),
    g(
        "📈",
        ":chart_with_upwards_trend:",
        "Add or update analytics or track code.",
    ),
    g("♻️", ":recycle:", "Refactor code."),
    g("➕", ":heavy_plus_sign:", "Add a dependency."),
    g("➖", ":heavy_minus_sign:", "Remove a dependency."),
    g("🔧", ":wrench:", "Add or update configuration files."),
    g("🔨", ":hammer:", "Add or update development scripts."),
    g(
        "🌐",
        ":globe_with_meridians:",
        "Internationalization and localization.",
    ),
    g("✏️", ":pencil2:", "Fix typos."),
    g("💩", ":poop:", "Write bad code that needs to be improved."),
    g("⏪️", ":rewind:", "Revert changes."),
    g("🔀", ":twisted_rightwards_arrows:", "Merge branches."),
    g(
        "📦️",
        ":package:",
        "Add or update compiled files or packages.",
    ),
    g("👽️", ":alien:", "Update code due to external API changes."),
    g(
        "🚚",
        ":truck:",
        "Move or rename resources (e.g.: files, paths, routes).",
    ),
    g("📄", ":page_facing_up:", "Add or update license."),
    g("💥", ":boom:", "Introduce breaking changes."),
    g("🍱", ":bento:", "Add or update assets."),
    g("♿️", ":wheelchair:", "Improve accessibility."),
    g("💡", ":bulb:", "Add or update comments in source code."),
    g("🍻", ":beers:", "Write code drunkenly."),
    g("💬", ":speech_balloon:", "Add or update text and literals."),
    g("🗃️", ":card_file_box:", "Perform database related changes."),
    g("🔊", ":loud_sound:", "Add or update logs."),
    g("🔇", ":mute:", "Remove logs."),
    g(
        "👥",
        ":busts_in_silhouette:",
        "Add or update contributor(s).",
    ),
    g(
        "🚸",
        ":children_crossing:",
        "Improve user experience / usability.",
    ),
    g(
        "🏗️",
        ":building_construction:",
        "Make architectural changes.",
    ),
    g("📱", ":iphone:", "Work on responsive design."),
    g("🤡", ":clown_face:", "Mock things."),
    g("🥚", ":egg:", "Add or update an easter egg."),
    g("🙈", ":see_no_evil:", "Add or update a .gitignore file."),
    g("📸", ":camera_flash:", "Add or update snapshots."),
    g("⚗️", ":alembic:", "Perform experiments."),
    g("🔍️", ":mag:", "Improve SEO."),
    g("🏷️", ":label:", "Add or update types."),
    g("🌱", ":seedling:", "Add or update seed files."),
    g(
        "🚩",
        ":triangular_flag_on_post:",
        "Add, update, or remove feature flags.",
    ),
    g("🥅", ":goal_net:", "Catch errors."),
    g("💫", ":dizzy:", "Add or update animations and transitions."),
    g(
        "🗑️",
        ":wastebasket:",
        "Deprecate code that needs to be cleaned up.",
    ),
    g(
        "🛂",
        ":passport_control:",
        "Work on code related to authorization, roles and permissions.",
    ),
    g(
        "🩹",
        ":adhesive_bandage:",
        "Simple fix for a non-critical issue.",
    ),
    g("🧐", ":monocle_face:", "Data exploration/inspection."),
    g("⚰️", ":coffin:", "Remove dead code."),
    g("🧪", ":test_tube:", "Add a failing test."),
    g("👔", ":necktie:", "Add or update business logic."),
    g("🩺", ":stethoscope:", "Add or update healthcheck."),
    g("🧱", ":bricks:", "Infrastructure related changes."),
    g(
        "🧑\u{200d}💻",
        ":technologist:",
        "Improve developer experience.",
    ),
    g(
        "💸",
        ":money_with_wings:",
        "Add sponsorships or money related infrastructure.",
    ),
    g(
        "🧵",
        ":thread:",
        "Add or update code related to multithreading or concurrency.",
    ),
    g(
        "🦺",
        ":safety_vest:",
        "Add or update code related to validation.",
    ),
    g("✈️", ":airplane:", "Improve offline support."),
    g("🦖", ":t-rex:", "Code that adds backwards compatibility."),
];

/// The gitmoji with this shortcode (`:sparkles:`) or emoji, if any.
pub fn find(code_or_emoji: &str) -> Option<&'static Gitmoji> {
    let wanted = code_or_emoji.trim();
    // Emoji are compared without the variation selector models often drop or add.
    let bare = |s: &str| s.replace('\u{fe0f}', "");
    GITMOJIS
        .iter()
        .find(|g| g.code == wanted || bare(g.emoji) == bare(wanted))
}

/// The list as prompt text, one `emoji :code: description` per line.
pub fn render_list() -> String {
    GITMOJIS
        .iter()
        .map(|g| format!("{} {} {}\n", g.emoji, g.code, g.description))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn the_list_is_complete_and_unique() {
        assert_eq!(GITMOJIS.len(), 75);
        let codes: HashSet<&str> = GITMOJIS.iter().map(|g| g.code).collect();
        let emoji: HashSet<&str> = GITMOJIS.iter().map(|g| g.emoji).collect();
        assert_eq!(codes.len(), GITMOJIS.len());
        assert_eq!(emoji.len(), GITMOJIS.len());
        for g in GITMOJIS {
            assert!(
                g.code.starts_with(':') && g.code.ends_with(':'),
                "{}",
                g.code
            );
            assert!(g.description.ends_with('.'), "{}", g.description);
        }
    }

    #[test]
    fn well_known_entries_are_there() {
        for (code, emoji) in [
            (":sparkles:", "✨"),
            (":bug:", "🐛"),
            (":memo:", "📝"),
            (":recycle:", "♻️"),
            (":zap:", "⚡️"),
            (":lock:", "🔒️"),
            (":fire:", "🔥"),
            (":white_check_mark:", "✅"),
            (":boom:", "💥"),
            (":arrow_up:", "⬆️"),
        ] {
            assert_eq!(find(code).map(|g| g.emoji), Some(emoji), "{code}");
        }
    }

    #[test]
    fn find_ignores_the_variation_selector() {
        assert_eq!(find("⚡").map(|g| g.code), Some(":zap:"));
        assert_eq!(find("♻").map(|g| g.code), Some(":recycle:"));
        assert_eq!(find(":nope:"), None);
    }

    #[test]
    fn the_rendered_list_has_a_line_per_gitmoji() {
        let list = render_list();
        assert_eq!(list.lines().count(), GITMOJIS.len());
        assert!(list.contains("✨ :sparkles: Introduce new features.\n"));
    }
}
