//! The studio's readers of user files (the keymap, the themes) on generated text: a broken
//! file is an error or a warning, never a panic.

use iris_studio_tui::keymap::{KeyChord, Keymap};
use iris_studio_tui::theme::{Theme, parse_color};
use proptest::prelude::*;

/// Text that looks like TOML often enough to reach the readers' deeper branches.
fn tomlish() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        "\\[[a-z_.]{0,12}\\]",
        "[a-z_\\-\"]{1,12} = \"[\\PC]{0,16}\"",
        "[a-z_\\-\"]{1,12} = \\[\"[a-z\\-+ ]{0,10}\"\\]",
        "extends = \"[a-z\\-.]{0,10}\"",
        "\\PC{0,30}",
    ];
    prop::collection::vec(line, 0..12).prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn key_chords_and_colours_take_anything(text in "\\PC{0,20}") {
        let _ = KeyChord::parse(&text);
        let _ = parse_color(&text);
    }

    #[test]
    fn a_keymap_file_is_read_or_refused(text in tomlish()) {
        let _ = Keymap::default().with_overrides(&text, "keymap.toml");
    }

    #[test]
    fn a_theme_file_is_read_or_refused(text in tomlish()) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("themes")).unwrap();
        std::fs::write(dir.path().join("themes/mine.toml"), &text).unwrap();
        let _ = Theme::load("mine", Some(dir.path()));
    }
}
