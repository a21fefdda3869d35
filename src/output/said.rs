//! How the faces say what a model or a repository gave them: untrusted text shown without
//! acting on the terminal, and the line that tells the user a secret was kept out of a request.

use iris_studio_core::secrets::Finding;

/// Untrusted text (a model's reply, a repository's file) as it may go to stdout: on a
/// terminal its control characters show escaped instead of acting on the terminal; a pipe gets
/// it as it is.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        iris_studio_core::controls::escape(text)
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// The line that tells the user a secret was kept out of a request.
pub fn withheld_line(finding: &Finding) -> String {
    format!(
        "iris: a secret was withheld from the provider: {finding} (sent as a marker; your \
         files and the commit are untouched; fingerprint {} for .irissecretsignore)",
        finding.fingerprint
    )
}
