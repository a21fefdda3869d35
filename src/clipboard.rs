//! Copying text to the system clipboard through the terminal: the OSC 52 escape sequence,
//! which terminals (and tmux with `set-clipboard on`) pass to the clipboard, also over ssh.
//! It is written to the controlling terminal, `/dev/tty`, so stdout stays the artifact.

use std::io::Write;

use base64::Engine;

/// Terminals drop (or cut) OSC 52 payloads much larger than this.
pub const MAX_COPY_BYTES: usize = 100_000;

/// Why the text could not be copied.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ClipboardError(pub String);

/// The OSC 52 sequence that puts `text` on the system clipboard: `ESC ] 52 ; c ; BASE64 BEL`.
pub fn osc52(text: &str) -> Result<String, ClipboardError> {
    if text.len() > MAX_COPY_BYTES {
        return Err(ClipboardError(format!(
            "the text is {} bytes, too long to copy through the terminal (at most {MAX_COPY_BYTES})",
            text.len()
        )));
    }
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    Ok(format!("\x1b]52;c;{encoded}\x07"))
}

/// Writes [`osc52`] of `text` to the controlling terminal.
pub fn copy_to_terminal(text: &str) -> Result<(), ClipboardError> {
    let sequence = osc52(text)?;
    let mut tty = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/tty")
        .map_err(|e| {
            ClipboardError(format!(
                "there is no terminal to copy through (/dev/tty: {e})"
            ))
        })?;
    tty.write_all(sequence.as_bytes())
        .and_then(|()| tty.flush())
        .map_err(|e| ClipboardError(format!("could not write to the terminal: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_carries_the_text_in_base64() {
        assert_eq!(osc52("hello").expect("small"), "\x1b]52;c;aGVsbG8=\x07");
        // Multi-byte text is encoded as its UTF-8 bytes.
        assert_eq!(osc52("é\n").expect("small"), "\x1b]52;c;w6kK\x07");
        assert_eq!(osc52("").expect("empty"), "\x1b]52;c;\x07");
    }

    #[test]
    fn text_over_the_limit_is_refused() {
        let at_limit = "a".repeat(MAX_COPY_BYTES);
        assert!(osc52(&at_limit).is_ok());
        let err = osc52(&format!("{at_limit}b")).expect_err("too long");
        assert!(err.to_string().contains("100001 bytes, too long"), "{err}");
        // The limit is on bytes, not characters.
        let wide = "é".repeat(MAX_COPY_BYTES / 2 + 1);
        assert!(osc52(&wide).is_err());
    }
}
