//! Asking on the terminal whether a tool call may run (the safety mode asks for its risk).
//! Without a terminal to ask on (a script, a hook, CI) the call is refused, and stderr says
//! how to allow it.

use std::io::{BufRead, IsTerminal, Write};

use iris_studio_core::protocol::{ApprovalRequest, Decision};

/// Asks the user on stderr and reads the answer from stdin; refuses without a terminal.
pub async fn ask(request: &ApprovalRequest) -> Decision {
    let on_terminal = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if !on_terminal {
        eprintln!(
            "iris: {} ({}) was not run: the safety mode asks first and there is no terminal to \
             ask on (--safety yolo, or safety_mode in your user config, allows it)",
            request.tool, request.risk
        );
        return Decision::Deny;
    }
    let mut err = std::io::stderr();
    let _ = write!(err, "\r\x1b[2K{}", question(request));
    let _ = err.flush();
    let answer = tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).map(|_| line)
    })
    .await;
    match answer {
        Ok(Ok(line)) => parse_answer(&line),
        _ => Decision::Deny,
    }
}

/// The question, ending where the answer is typed.
fn question(request: &ApprovalRequest) -> String {
    format!(
        "{}\n  arguments: {}\nAllow it? [y] once, [s] for this session, [N] no: ",
        request.question(),
        request.args_shown()
    )
}

/// `y`/`yes` allow once, `s`/`session`/`a`/`always` for the session; anything else refuses.
fn parse_answer(line: &str) -> Decision {
    match line.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Decision::AllowOnce,
        "s" | "session" | "a" | "always" => Decision::AllowForSession,
        _ => Decision::Deny,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iris_studio_core::protocol::{Reply, Risk};

    #[test]
    fn answers_are_read_forgivingly_and_refuse_by_default() {
        assert_eq!(parse_answer("y\n"), Decision::AllowOnce);
        assert_eq!(parse_answer(" YES "), Decision::AllowOnce);
        assert_eq!(parse_answer("s"), Decision::AllowForSession);
        assert_eq!(parse_answer("always"), Decision::AllowForSession);
        assert_eq!(parse_answer(""), Decision::Deny);
        assert_eq!(parse_answer("sure"), Decision::Deny);
    }

    #[test]
    fn the_question_names_the_tool_its_risk_and_its_arguments() {
        let request = ApprovalRequest {
            tool: "static_analysis".into(),
            args: format!("Args {{ paths: [{}] }}", "\"x\", ".repeat(200)),
            risk: Risk::Execute,
            reply: Reply::default(),
        };
        let text = question(&request);
        assert!(text.starts_with(
            "Iris wants to run static_analysis (execute: runs programs of this repository)"
        ));
        assert!(text.contains(" …\n"), "long arguments are cut: {text}");
        assert!(text.ends_with("[N] no: "));
    }
}
