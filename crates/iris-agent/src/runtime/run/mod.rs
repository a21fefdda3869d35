//! One conversation with a model: the request as each wire wants it (an output budget always,
//! the artifact's JSON schema in the strongest form the wire offers), the reply streamed and
//! watched for runaway loops, and rig's failures worded for people.

use std::time::Duration;

use futures::StreamExt;
use rig_core::agent::{AgentBuilder, MultiTurnStreamItem, StreamingError};
use rig_core::completion::{CompletionModel, Prompt, PromptError};
use rig_core::message::Message;
use rig_core::streaming::{StreamedAssistantContent, StreamingPrompt};
use rig_core::tool::ToolDyn;
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::runtime::budget::Meter;
use crate::runtime::error::{ErrorKind, ProviderError};
use crate::runtime::events::{EventHook, EventSink};
use crate::runtime::provider::with_completion_model;
use crate::runtime::provider::{Conversation, ProviderKind, ProviderSpec, Wire};
use crate::runtime::request::Request;
use crate::runtime::run_context::RunContext;
use crate::runtime::runaway;

/// Told to a command-line agent, which is offered none of the tools the instructions name.
pub(crate) const NO_TOOLS: &str = "Here you have no tools to call: everything you have is in \
                                   the request. Write the answer from it at once.";

/// One request to a model: instructions, history, the new message and the tools it may use.
pub struct Run {
    /// The instructions (the system prompt): who Iris is, her style, the capability's task.
    pub preamble: String,
    /// The conversation's earlier messages (a chat's turns), oldest first.
    pub history: Vec<Message>,
    /// The new message: the request, with any evidence gathered up front, in its sections
    /// (rendered to text here, once).
    pub prompt: Request,
    /// The tools the model may call.
    pub tools: Vec<Box<dyn ToolDyn>>,
    /// Replies the model may take; still calling tools after the last is an
    /// [`ErrorKind::OutOfTurns`] failure.
    pub max_turns: usize,
    /// Output token budget of each reply.
    pub max_tokens: u64,
    /// The JSON schema the answer must match, asked of the provider (`None`: free text, or the
    /// model is only told the schema in the instructions).
    pub schema: Option<Value>,
    /// Stream the reply (events carry text as it is written) or take it whole.
    pub stream: bool,
}

/// What a run produced: the final turn's text and the tokens spent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunOutput {
    /// The final reply's text.
    pub text: String,
    /// Requests sent to the model.
    pub requests: usize,
    /// Input tokens of every request, as the provider reported them.
    pub input_tokens: u64,
    /// Output tokens of every reply, as the provider reported them.
    pub output_tokens: u64,
}

/// Runs one conversation on `spec`'s model within the command's run context `context`
/// (its budget and dry run), reporting through `sink`.
pub async fn run(
    spec: &ProviderSpec,
    context: &RunContext,
    mut request: Run,
    sink: EventSink,
) -> anyhow::Result<RunOutput> {
    // A command-line agent is offered no tools (it could not call them): the evidence is in
    // the request, and it is told so.
    if spec.kind.cli().is_some() {
        request.tools.clear();
        request.preamble = format!("{}\n\n{NO_TOOLS}", request.preamble);
    }
    let options = WireOptions::new(
        spec.kind,
        spec.reasoning_effort.as_deref(),
        request.max_tokens,
        request.schema.as_ref(),
    )
    .map_err(|e| ProviderError::new(spec, ErrorKind::Request, e))?;
    if let Some(dry_run) = &context.dry_run {
        dry_run.note_request(&request.prompt);
    }
    let conversation = Conversation {
        failure: Default::default(),
        meter: context
            .budget
            .as_ref()
            .map(|budget| Meter::new(budget.clone(), request.max_tokens)),
        dry_run: context.dry_run.clone(),
    };
    let (asked, schema) = (request.max_tokens, request.schema.is_some());
    let outcome: Result<RunOutput, Failed> =
        with_completion_model!(spec, &sink, &conversation, |model| {
            let hook =
                EventHook::new(sink.clone(), request.stream).with_meter(conversation.meter.clone());
            run_with_model(model, request, options, spec.stall_timeout, hook).await
        });
    // A request never answered gives its output reservation back.
    let capped = conversation.meter.as_ref().is_some_and(|meter| {
        meter.close();
        meter.stopped()
    });
    outcome.map_err(|failed| {
        // What the transport said of a reply it broke off, which rig does not pass on.
        let transport = conversation.failure.take();
        let error = match failed {
            // The cap cut the reply off (the hook stopped it).
            Failed::Run(_, message) if capped => {
                ProviderError::new(spec, ErrorKind::OverBudget, message)
            }
            Failed::Run(kind, message) => ProviderError::new(spec, kind, message),
            // Our own middleware held the request back; rig only passes on its words.
            Failed::Rig(message)
                if context
                    .dry_run
                    .as_ref()
                    .is_some_and(|d| d.captured().is_some()) =>
            {
                ProviderError::new(spec, ErrorKind::NotSent, message)
            }
            Failed::Rig(message) if capped => {
                ProviderError::new(spec, ErrorKind::OverBudget, message)
            }
            // A command-line agent's own words, or a silence mid-reply, which a broken
            // stream does not carry.
            Failed::Rig(message) if transport.is_some() || spec.kind.cli().is_some() => {
                ProviderError::new(spec, ErrorKind::Transport, transport.unwrap_or(message))
            }
            Failed::Rig(message) => {
                let mut error = ProviderError::from_rig(spec, &message, asked, schema);
                error.message = explain_cut(error.message);
                error
            }
        };
        error.into()
    })
}

/// How a conversation failed: the run stopped it itself (a loop, a stall, turns run out), or
/// rig reported a failure of the provider or the wire.
enum Failed {
    Run(ErrorKind, String),
    Rig(String),
}

/// What a request carries besides the conversation, per wire.
struct WireOptions {
    /// rig's own structured-output option, which it maps to the wire's field.
    output_schema: Option<schemars::Schema>,
    /// Fields merged into the request body.
    params: Option<Value>,
}

impl WireOptions {
    fn new(
        kind: ProviderKind,
        effort: Option<&str>,
        max_tokens: u64,
        schema: Option<&Value>,
    ) -> Result<Self, String> {
        let output_schema = schema
            .map(|s| schemars::Schema::try_from(s.clone()))
            .transpose()
            .map_err(|e| format!("the artifact's JSON schema is not an object: {e}"))?;
        let mut options = match kind.wire() {
            // Responses `text.format`: sent with the tools, so the model may still gather
            // evidence before it answers.
            Wire::Responses => Self {
                output_schema,
                params: None,
            },
            // `output_config.format`, likewise with the tools. rig 0.37 maps its own option
            // only when the reply is not streamed, so it is set as a field of the body.
            Wire::Anthropic => Self {
                output_schema: None,
                params: schema.map(|schema| {
                    let schema = without_limits(schema.clone());
                    json!({"output_config": {"format": {"type": "json_schema", "schema": schema}}})
                }),
            },
            // rig holds `response_format` back until a tool has answered (llama.cpp cannot
            // call tools under a grammar), which would leave an answer at once unconstrained:
            // the evidence is in the first request, so the schema goes there too. A service
            // that takes only JSON mode gets that; one that takes neither is only told.
            Wire::ChatCompletions | Wire::Azure | Wire::Cli => {
                let service = kind.service();
                let format = match schema {
                    Some(schema) if service.is_none_or(|s| s.json_schema) => Some(json!({
                        "type": "json_schema",
                        "json_schema": {"name": "artifact", "strict": true, "schema": schema},
                    })),
                    Some(_) if service.is_some_and(|s| s.json_object) => {
                        Some(json!({"type": "json_object"}))
                    }
                    _ => None,
                };
                let mut params = serde_json::Map::new();
                if let Some(format) = format {
                    params.insert("response_format".into(), format);
                }
                // rig's Azure request has no field for the budget; a CLI is told it in words.
                if matches!(kind.wire(), Wire::Azure | Wire::Cli) {
                    params.insert("max_completion_tokens".into(), json!(max_tokens));
                }
                Self {
                    output_schema: None,
                    params: (!params.is_empty()).then_some(Value::Object(params)),
                }
            }
            // rig sets `maxOutputTokens` only inside a generation config that exists.
            Wire::Gemini => Self {
                output_schema,
                params: Some(json!({"generationConfig": {"maxOutputTokens": max_tokens}})),
            },
            // Ollama reads the budget from `options.num_predict`; rig puts these params there.
            Wire::Ollama => Self {
                output_schema,
                params: Some(json!({ "num_predict": max_tokens })),
            },
        };
        if let Some(effort) = effort {
            let field = effort_field(kind, effort, max_tokens)?;
            options.params = Some(merged(options.params.take(), field));
        }
        if let Some(service) = kind.service().filter(|s| !s.extra_body.is_empty()) {
            let extra = serde_json::to_value(&service.extra_body)
                .map_err(|e| format!("{kind}'s extra_body: {e}"))?;
            options.params = Some(merged(options.params.take(), extra));
        }
        Ok(options)
    }
}

/// `reasoning_effort` as `kind`'s wire takes it: a field of its own on Chat Completions, an
/// object on the Responses API and OpenRouter, a thinking budget in tokens on Anthropic and
/// Gemini (within the output budget, which thinking counts against).
fn effort_field(kind: ProviderKind, effort: &str, max_tokens: u64) -> Result<Value, String> {
    let budget = match effort {
        "none" | "minimal" => 0,
        "low" => 1_024,
        "medium" => 4_096,
        "high" => 16_384,
        other => {
            return Err(format!(
                "providers.{kind}.reasoning_effort is `{other}`; it takes none, minimal, low, \
                 medium or high"
            ));
        }
    };
    Ok(match kind.wire() {
        Wire::Responses => json!({"reasoning": {"effort": effort}}),
        Wire::ChatCompletions if kind.name() == "openrouter" => {
            json!({"reasoning": {"effort": effort}})
        }
        Wire::ChatCompletions | Wire::Azure | Wire::Cli => json!({"reasoning_effort": effort}),
        // Anthropic thinks at least 1,024 tokens, and less than the whole budget.
        Wire::Anthropic if budget == 0 || max_tokens <= 2_048 => json!({}),
        Wire::Anthropic => json!({"thinking": {
            "type": "enabled",
            "budget_tokens": budget.min(max_tokens / 2).max(1_024),
        }}),
        // Gemini 2.5 Pro cannot stop thinking and thinks 128 tokens at least: `none` keeps
        // the model's own default.
        Wire::Gemini if budget == 0 => json!({}),
        Wire::Gemini => json!({"generationConfig": {"thinkingConfig": {
            "thinkingBudget": budget.min(max_tokens / 2).max(128),
        }}}),
        Wire::Ollama => {
            return Err(format!(
                "providers.{kind}.reasoning_effort: Ollama's API takes no effort; remove it"
            ));
        }
    })
}

/// `extra`'s fields over `params`, objects merged one level down (`generationConfig`).
fn merged(params: Option<Value>, extra: Value) -> Value {
    let mut params = params.unwrap_or_else(|| json!({}));
    if let (Value::Object(into), Value::Object(from)) = (&mut params, extra) {
        for (key, value) in from {
            match (into.get_mut(&key), value) {
                (Some(Value::Object(inner)), Value::Object(more)) => inner.extend(more),
                (_, value) => {
                    into.insert(key, value);
                }
            }
        }
    }
    params
}

/// The schema without the numeric and length limits Anthropic's structured output refuses
/// (a confidence's `maximum`, a line number's `minimum`); the reader still checks the values.
fn without_limits(mut schema: Value) -> Value {
    const LIMITS: [&str; 7] = [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
    ];
    fn strip(node: &mut Value) {
        match node {
            Value::Object(object) => {
                for key in LIMITS {
                    object.remove(key);
                }
                object.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut schema);
    schema
}

/// rig words a reply body that could not be read to its end (the connection dropped, or
/// `stream_end` refused a stream without its final event) as "error decoding response body"
/// and drops the cause: say what happened first.
fn explain_cut(message: String) -> String {
    if crate::runtime::rig_words::body_cut(&message) {
        format!("the reply was cut off before it was complete ({message})")
    } else {
        message
    }
}

async fn run_with_model<M: CompletionModel + 'static>(
    model: M,
    request: Run,
    options: WireOptions,
    stall: Duration,
    hook: EventHook,
) -> Result<RunOutput, Failed> {
    let mut builder = AgentBuilder::new(model)
        .preamble(&request.preamble)
        .max_tokens(request.max_tokens);
    if let Some(schema) = options.output_schema {
        builder = builder.output_schema_raw(schema);
    }
    if let Some(params) = options.params {
        builder = builder.additional_params(params);
    }
    let agent = builder.tools(request.tools).build();
    let prompt = request.prompt.render();
    let counted = hook.clone();
    let turns = request.max_turns;
    if !request.stream {
        let response = agent
            .prompt(prompt)
            .with_history(request.history)
            .max_turns(rig_turns(turns))
            .with_hook(hook)
            .extended_details()
            .await
            .map_err(|e| describe_prompt_error(&e, turns))?;
        // A whole reply cannot be cut short, but a loop is still no answer.
        if let Some(runaway::Degenerate(why)) = runaway::check(&response.output) {
            return Err(Failed::Run(ErrorKind::Runaway, format!("{why}; stopped")));
        }
        return Ok(RunOutput {
            text: response.output,
            requests: counted.requests(),
            input_tokens: response.usage.input_tokens,
            output_tokens: response.usage.output_tokens,
        });
    }
    let mut stream = agent
        .stream_prompt(prompt)
        .with_history(request.history)
        .multi_turn(rig_turns(turns))
        .with_hook(hook)
        .await;
    // Reasoning reaches no hook in rig 0.37: it is watched here (a model can loop while
    // "thinking" as well as while writing).
    let mut reasoning = runaway::Gathered::default();
    // A server that keeps the stream open with bytes that carry nothing (keep-alives, empty
    // deltas) is stopped after `stall` without text, a tool call or reasoning; the time
    // Iris' own tools take between two requests is not the server's.
    let mut running_tools = 0usize;
    // A little later than the HTTP client's own read timeout, which words total silence
    // ("no answer from ...") better.
    let stall_limit = stall + (stall / 2).min(Duration::from_secs(5));
    let mut deadline = Instant::now() + stall_limit;
    loop {
        let next = if running_tools == 0 {
            match tokio::time::timeout_at(deadline, stream.next()).await {
                Ok(next) => next,
                // The model may be writing a tool call's arguments: those reach only the hook.
                Err(_) => match counted.last_delta().filter(|at| at.elapsed() < stall_limit) {
                    Some(at) => {
                        deadline = Instant::from_std(at) + stall_limit;
                        continue;
                    }
                    None => {
                        return Err(Failed::Run(
                            ErrorKind::Transport,
                            format!(
                                "the server sent nothing readable (no text, tool call or reasoning) for {}s (request_timeout_secs); stopped",
                                stall.as_secs_f64()
                            ),
                        ));
                    }
                },
            }
        } else {
            stream.next().await
        };
        let Some(item) = next else {
            break;
        };
        let progressed = match &item {
            Ok(MultiTurnStreamItem::StreamAssistantItem(content)) => match content {
                StreamedAssistantContent::Text(text) => !text.text.is_empty(),
                StreamedAssistantContent::ReasoningDelta { reasoning, .. } => !reasoning.is_empty(),
                StreamedAssistantContent::ToolCall { .. } => {
                    running_tools += 1;
                    true
                }
                StreamedAssistantContent::ToolCallDelta { .. }
                | StreamedAssistantContent::Reasoning(_) => true,
                StreamedAssistantContent::Final(_) => false,
            },
            Ok(MultiTurnStreamItem::StreamUserItem(_)) => {
                running_tools = running_tools.saturating_sub(1);
                true
            }
            Ok(MultiTurnStreamItem::FinalResponse(_)) | Err(_) => true,
            Ok(_) => false,
        };
        if progressed {
            deadline = Instant::now() + stall_limit;
        }
        match item {
            Ok(MultiTurnStreamItem::StreamAssistantItem(
                StreamedAssistantContent::ReasoningDelta {
                    reasoning: delta, ..
                },
            )) => {
                counted.thinking(&delta);
                if let Some(runaway::Degenerate(why)) = reasoning.push(&delta) {
                    return Err(Failed::Run(
                        ErrorKind::Runaway,
                        format!("{why} (in its reasoning); stopped"),
                    ));
                }
            }
            Ok(MultiTurnStreamItem::StreamAssistantItem(StreamedAssistantContent::ToolCall {
                ..
            })) => reasoning.restart(),
            Ok(MultiTurnStreamItem::FinalResponse(last)) => {
                let usage = last.usage();
                counted.settle(usage.input_tokens, usage.output_tokens);
                return Ok(RunOutput {
                    text: last.response().to_string(),
                    requests: counted.requests(),
                    input_tokens: usage.input_tokens,
                    output_tokens: usage.output_tokens,
                });
            }
            Ok(_) => {}
            Err(e) => return Err(describe_streaming_error(&e, turns)),
        }
    }
    Err(Failed::Run(
        ErrorKind::Transport,
        "the reply stream ended before the model finished".to_string(),
    ))
}

/// Our turns (model replies) as rig 0.37 counts them: given `n`, both its prompt loops send
/// up to `n + 2` requests before giving up. So `max_turns = 3` is three replies; the least rig
/// allows is two (one tool round and the answer).
fn rig_turns(model_replies: usize) -> usize {
    model_replies.saturating_sub(2)
}

/// A streamed run's failure, worded like the same failure of a whole reply.
fn describe_streaming_error(err: &StreamingError, turns: usize) -> Failed {
    match err {
        StreamingError::Prompt(prompt) => describe_prompt_error(prompt, turns),
        other => Failed::Rig(other.to_string()),
    }
}

fn describe_prompt_error(err: &PromptError, turns: usize) -> Failed {
    match err {
        PromptError::MaxTurnsError { .. } => Failed::Run(
            ErrorKind::OutOfTurns,
            format!(
                "the model was still calling tools after {turns} turns; stopped (raise max_turns, or ask for less)"
            ),
        ),
        // Only the hook stops a run, for a runaway reply; its reason says why.
        PromptError::PromptCancelled { reason, .. } => {
            Failed::Run(ErrorKind::Runaway, reason.clone())
        }
        other => Failed::Rig(other.to_string()),
    }
}

#[cfg(test)]
mod conversations;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_wire_gets_the_budget_and_the_schema_where_it_reads_them() {
        let schema = json!({"type": "object", "properties": {"title": {"type": "string"}}});
        let chat =
            WireOptions::new(ProviderKind::OpenAiCompatible, None, 900, Some(&schema)).unwrap();
        assert!(chat.output_schema.is_none());
        let format = &chat.params.unwrap()["response_format"];
        assert_eq!(format["type"], "json_schema");
        assert_eq!(format["json_schema"]["schema"], schema);
        let gemini = WireOptions::new(ProviderKind::Gemini, None, 900, Some(&schema)).unwrap();
        assert!(gemini.output_schema.is_some());
        assert_eq!(
            gemini.params.unwrap()["generationConfig"]["maxOutputTokens"],
            900
        );
        let ollama = WireOptions::new(ProviderKind::Ollama, None, 900, None).unwrap();
        assert!(ollama.output_schema.is_none());
        assert_eq!(ollama.params.unwrap()["num_predict"], 900);
        let responses = WireOptions::new(ProviderKind::OpenAi, None, 900, Some(&schema)).unwrap();
        assert!(responses.output_schema.is_some() && responses.params.is_none());
        let anthropic =
            WireOptions::new(ProviderKind::Anthropic, None, 900, Some(&schema)).unwrap();
        assert_eq!(
            anthropic.params.unwrap()["output_config"]["format"]["schema"],
            schema
        );
        let critique = iris_studio_core::artifact::OutputType::Critique.schema();
        assert!(critique.to_string().contains("\"maximum\""));
        let sent = WireOptions::new(ProviderKind::Anthropic, None, 900, Some(&critique)).unwrap();
        let sent = sent.params.unwrap()["output_config"]["format"]["schema"].to_string();
        assert!(
            !sent.contains("\"maximum\"") && !sent.contains("\"minimum\""),
            "{sent}"
        );
        assert!(sent.contains("\"confidence\""));
    }

    #[test]
    fn a_service_gets_the_response_format_it_takes_and_azure_its_budget() {
        let schema = json!({"type": "object", "properties": {"title": {"type": "string"}}});
        let service = |name: &str| ProviderKind::parse(name).expect(name);
        let format = |name: &str| {
            WireOptions::new(service(name), None, 900, Some(&schema))
                .unwrap()
                .params
                .map(|p| p["response_format"]["type"].clone())
        };
        assert_eq!(format("groq"), Some(json!("json_schema")));
        assert_eq!(format("deepseek"), Some(json!("json_object")));
        let router = WireOptions::new(service("openrouter"), None, 900, None).unwrap();
        assert_eq!(router.params.unwrap()["usage"]["include"], true);
        let azure = WireOptions::new(service("azure"), None, 900, None).unwrap();
        assert_eq!(azure.params.unwrap()["max_completion_tokens"], 900);
    }

    #[test]
    fn reasoning_effort_goes_where_each_wire_reads_it() {
        let params = |kind: ProviderKind, effort: &str, max: u64| {
            WireOptions::new(kind, Some(effort), max, None).map(|o| o.params.unwrap_or_default())
        };
        let groq = ProviderKind::parse("groq").unwrap();
        assert_eq!(params(groq, "low", 900).unwrap()["reasoning_effort"], "low");
        let router = ProviderKind::parse("openrouter").unwrap();
        assert_eq!(
            params(router, "high", 900).unwrap()["reasoning"]["effort"],
            "high"
        );
        let responses = params(ProviderKind::OpenAi, "minimal", 900).unwrap();
        assert_eq!(responses["reasoning"]["effort"], "minimal");
        let claude = params(ProviderKind::Anthropic, "high", 16_000).unwrap();
        assert_eq!(claude["thinking"]["budget_tokens"], 8_000);
        let gemini = params(ProviderKind::Gemini, "none", 16_000).unwrap();
        assert!(gemini["generationConfig"].get("thinkingConfig").is_none());
        let gemini = params(ProviderKind::Gemini, "low", 16_000).unwrap();
        assert_eq!(gemini["generationConfig"]["maxOutputTokens"], 16_000);
        assert_eq!(
            gemini["generationConfig"]["thinkingConfig"]["thinkingBudget"],
            1_024
        );
        let wrong = params(groq, "extreme", 900).unwrap_err();
        assert!(
            wrong.contains("providers.groq.reasoning_effort is `extreme`"),
            "{wrong}"
        );
        assert!(params(ProviderKind::Ollama, "low", 900).is_err());
        // Anthropic thinks within the budget, and not at all when it is small.
        let small = params(ProviderKind::Anthropic, "high", 2_048).unwrap();
        assert!(small.get("thinking").is_none(), "{small}");
        let none = params(ProviderKind::Anthropic, "none", 16_000).unwrap();
        assert!(none.get("thinking").is_none(), "{none}");
        let enough = params(ProviderKind::Anthropic, "low", 2_049).unwrap();
        assert_eq!(enough["thinking"]["budget_tokens"], 1_024);
    }

    #[test]
    fn limits_are_taken_out_of_a_schema_at_every_depth() {
        let schema = json!({"anyOf": [{"type": "integer", "minimum": 1}], "maxLength": 3,
            "properties": {"n": {"type": "number", "maximum": 1.0}}});
        assert_eq!(
            without_limits(schema),
            json!({"anyOf": [{"type": "integer"}], "properties": {"n": {"type": "number"}}})
        );
    }

    #[test]
    fn a_body_cut_off_is_said_first() {
        assert_eq!(
            explain_cut("error decoding response body".into()),
            "the reply was cut off before it was complete (error decoding response body)"
        );
        assert_eq!(explain_cut("400 Bad Request".into()), "400 Bad Request");
    }
}
