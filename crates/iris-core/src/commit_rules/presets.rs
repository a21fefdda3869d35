//! The shared configurations a file may extend, as their published rule lists set them
//! (the rules Iris checks; the others they set are left out).

use super::{Case, CommitRules, Rule};

/// `@commitlint/config-conventional`'s types, and commitizen's `cz_conventional_commits`
/// ones before it adds `bump`.
pub const CONVENTIONAL_TYPES: [&str; 11] = [
    "build", "chore", "ci", "docs", "feat", "fix", "perf", "refactor", "revert", "style", "test",
];

/// `@commitlint/config-angular`'s types (conventional's without `chore`).
const ANGULAR_TYPES: [&str; 10] = [
    "build", "ci", "docs", "feat", "fix", "perf", "refactor", "revert", "style", "test",
];

/// The preset an `extends` entry names, applied to `rules`; false for one Iris does not know.
pub fn apply(name: &str, rules: &mut CommitRules) -> bool {
    // A path into node_modules names the same package.
    let package = name
        .rsplit_once("node_modules/")
        .map_or(name, |(_, p)| p)
        .trim_end_matches('/');
    match package {
        "@commitlint/config-conventional" | "@commitlint/config-conventional/index.js" => {
            conventional(rules);
            true
        }
        "@commitlint/config-angular" | "@commitlint/config-angular/index.js" => {
            angular(rules);
            true
        }
        _ => false,
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The subject cases both presets forbid.
fn not_capitalised() -> Vec<Case> {
    vec![Case::Sentence, Case::Start, Case::Pascal, Case::Upper]
}

fn conventional(r: &mut CommitRules) {
    r.body_leading_blank = Some(Rule::always(()).warning());
    r.body_max_line_length = Some(Rule::always(100));
    r.footer_leading_blank = Some(Rule::always(()).warning());
    r.footer_max_line_length = Some(Rule::always(100));
    r.header_max_length = Some(Rule::always(100));
    r.subject_case = Some(Rule::never(not_capitalised()));
    r.subject_empty = Some(Rule::never(()));
    r.subject_full_stop = Some(Rule::never(".".to_string()));
    r.type_case = Some(Rule::always(vec![Case::Lower]));
    r.type_empty = Some(Rule::never(()));
    r.type_enum = Some(Rule::always(strings(&CONVENTIONAL_TYPES)));
}

fn angular(r: &mut CommitRules) {
    r.body_leading_blank = Some(Rule::always(()).warning());
    r.footer_leading_blank = Some(Rule::always(()).warning());
    r.header_max_length = Some(Rule::always(72));
    r.scope_case = Some(Rule::always(vec![Case::Lower]));
    r.subject_case = Some(Rule::never(not_capitalised()));
    r.subject_empty = Some(Rule::never(()));
    r.subject_full_stop = Some(Rule::never(".".to_string()));
    r.type_case = Some(Rule::always(vec![Case::Lower]));
    r.type_empty = Some(Rule::never(()));
    r.type_enum = Some(Rule::always(strings(&ANGULAR_TYPES)));
}
