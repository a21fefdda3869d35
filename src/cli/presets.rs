//! `iris presets`: the writing styles `--preset` accepts.

use std::process::ExitCode;

use anyhow::Result;

use iris_studio_agent::style::presets;

pub fn run() -> Result<ExitCode> {
    super::print_exact(&table())?;
    Ok(ExitCode::SUCCESS)
}

/// One row per preset: name, whether gitmoji applies (with --gitmoji), description.
fn table() -> String {
    let width = presets()
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        .max("PRESET".len());
    let mut out = format!("{:width$}  GITMOJI  DESCRIPTION\n", "PRESET");
    for preset in presets() {
        let gitmoji = if preset.allows_gitmoji { "yes" } else { "no" };
        out.push_str(&format!(
            "{:width$}  {gitmoji:7}  {}\n",
            preset.name, preset.description
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_has_an_aligned_row() {
        let text = table();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), presets().len() + 1);
        assert_eq!(
            lines[2],
            "conventional  no       Conventional Commits: type(scope): subject, no emoji"
        );
        let column = lines[0].find("DESCRIPTION");
        for (line, preset) in lines[1..].iter().zip(presets()) {
            assert_eq!(line.find(preset.description), column, "{line}");
        }
    }
}
