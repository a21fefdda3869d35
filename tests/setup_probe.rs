//! The setup probe (`iris_studio::probe`) against tiny HTTP servers on 127.0.0.1: the servers
//! that answer are listed with their models, a silent one costs no more than the deadline, a
//! closed port nothing, and an address that is not loopback is never contacted.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use iris_studio::probe::{ProbeApi, ServerAddress, probe};
use iris_studio_config::ProviderKind;
use iris_studio_config::setup::LocalServer;

const OLLAMA_TAGS: &str = r#"{"models":[{"name":"qwen3:0.6b","model":"qwen3:0.6b","size":522653767,"details":{"family":"qwen3"}},{"name":"nomic-embed-text:latest","model":"nomic-embed-text:latest"},{"name":"llama3.2:latest","model":"llama3.2:latest"}]}"#;
const OPENAI_MODELS: &str = r#"{"object":"list","data":[{"id":"qwen2.5-7b-instruct","object":"model","owned_by":"organization_owner"},{"id":"SmolLM2-135M-Instruct","object":"model","owned_by":"llamacpp"}]}"#;

/// What a fake server does with each connection.
#[derive(Clone, Copy)]
enum Behaviour {
    /// Answers `GET path` with 200 and the body, anything else with 404.
    Answer(&'static str, &'static str),
    /// Accepts and never says a word.
    Silent,
    /// Sends headers, then body bytes until the client goes away.
    Endless,
}

/// A server on 127.0.0.1 (or every address) that counts its connections and the request
/// lines it read.
struct Server {
    port: u16,
    connections: Arc<AtomicUsize>,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start(behaviour: Behaviour) -> Server {
        Server::on("127.0.0.1:0", behaviour)
    }

    fn on(address: &str, behaviour: Behaviour) -> Server {
        let listener = TcpListener::bind(address).expect("bind");
        let port = listener.local_addr().expect("address").port();
        let connections = Arc::new(AtomicUsize::new(0));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let (count, seen) = (Arc::clone(&connections), Arc::clone(&requests));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                count.fetch_add(1, Ordering::SeqCst);
                let seen = Arc::clone(&seen);
                std::thread::spawn(move || serve(stream, behaviour, &seen));
            }
        });
        Server {
            port,
            connections,
            requests,
        }
    }

    fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

fn serve(mut stream: TcpStream, behaviour: Behaviour, seen: &Mutex<Vec<String>>) {
    if let Behaviour::Silent = behaviour {
        // Hold the connection open, reading nothing, for longer than any probe waits.
        std::thread::sleep(Duration::from_secs(30));
        drop(stream);
        return;
    }
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).is_ok_and(|n| n == 1) {
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let request_line = head.lines().next().unwrap_or_default().to_string();
    seen.lock().expect("lock").push(request_line.clone());
    match behaviour {
        Behaviour::Answer(path, body) => {
            let (status, body) = if request_line == format!("GET {path} HTTP/1.1") {
                ("200 OK", body)
            } else {
                ("404 Not Found", "{\"error\":\"not found\"}")
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{body}",
                body.len()
            );
        }
        Behaviour::Endless => {
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n",
            );
            let chunk = [b' '; 64 * 1024];
            while stream.write_all(&chunk).is_ok() {}
        }
        Behaviour::Silent => {}
    }
}

fn candidate(label: &'static str, base_url: String, api: ProbeApi) -> ServerAddress {
    let provider = match api {
        ProbeApi::OllamaTags => ProviderKind::Ollama,
        ProbeApi::OpenAiModels => ProviderKind::OpenAiCompatible,
    };
    ServerAddress {
        label,
        provider,
        base_url,
        api,
    }
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("address").port()
}

/// Runs a probe, failing the test rather than hanging it if the deadline is not kept.
async fn timed_probe(
    candidates: &[ServerAddress],
    timeout: Duration,
) -> (Vec<LocalServer>, Duration) {
    let started = Instant::now();
    let found = tokio::time::timeout(Duration::from_secs(20), probe(candidates, timeout))
        .await
        .expect("the probe kept no deadline");
    (found, started.elapsed())
}

#[tokio::test]
async fn answering_servers_are_listed_and_silent_or_closed_ones_cost_at_most_the_deadline() {
    let ollama = Server::start(Behaviour::Answer("/api/tags", OLLAMA_TAGS));
    let openai = Server::start(Behaviour::Answer("/v1/models", OPENAI_MODELS));
    let silent = Server::start(Behaviour::Silent);
    let closed = closed_port();
    let candidates = [
        candidate(
            "Ollama",
            format!("http://127.0.0.1:{}", ollama.port),
            ProbeApi::OllamaTags,
        ),
        candidate(
            "Silent",
            format!("http://127.0.0.1:{}/v1", silent.port),
            ProbeApi::OpenAiModels,
        ),
        candidate(
            "Closed",
            format!("http://127.0.0.1:{closed}/v1"),
            ProbeApi::OpenAiModels,
        ),
        candidate(
            "LM Studio",
            format!("http://localhost:{}/v1/", openai.port),
            ProbeApi::OpenAiModels,
        ),
    ];
    let timeout = Duration::from_millis(500);
    let (found, elapsed) = timed_probe(&candidates, timeout).await;
    assert_eq!(
        found,
        [
            LocalServer {
                label: "Ollama",
                provider: ProviderKind::Ollama,
                base_url: format!("http://127.0.0.1:{}", ollama.port),
                models: vec!["qwen3:0.6b".into(), "llama3.2:latest".into()],
            },
            LocalServer {
                label: "LM Studio",
                provider: ProviderKind::OpenAiCompatible,
                base_url: format!("http://localhost:{}/v1", openai.port),
                models: vec!["qwen2.5-7b-instruct".into(), "SmolLM2-135M-Instruct".into()],
            },
        ]
    );
    assert_eq!(silent.connections(), 1, "the silent server was asked");
    // All at once: the silent server's deadline, not the sum of the waits (plus slack for a
    // busy machine).
    assert!(
        elapsed < timeout + Duration::from_millis(1500),
        "took {elapsed:?}"
    );
    assert_eq!(
        *ollama.requests.lock().expect("lock"),
        ["GET /api/tags HTTP/1.1"]
    );
    assert_eq!(
        *openai.requests.lock().expect("lock"),
        ["GET /v1/models HTTP/1.1"]
    );
}

#[tokio::test]
async fn a_server_that_is_not_a_model_server_or_talks_too_much_is_left_out() {
    let html = Server::start(Behaviour::Answer(
        "/v1/models",
        "<html><body>It works!</body></html>",
    ));
    let wrong_path = Server::start(Behaviour::Answer("/other", OPENAI_MODELS));
    let endless = Server::start(Behaviour::Endless);
    let candidates = [
        candidate(
            "html",
            format!("http://127.0.0.1:{}/v1", html.port),
            ProbeApi::OpenAiModels,
        ),
        candidate(
            "404",
            format!("http://127.0.0.1:{}/v1", wrong_path.port),
            ProbeApi::OpenAiModels,
        ),
        candidate(
            "endless",
            format!("http://127.0.0.1:{}", endless.port),
            ProbeApi::OllamaTags,
        ),
    ];
    let timeout = Duration::from_secs(5);
    let (found, elapsed) = timed_probe(&candidates, timeout).await;
    assert_eq!(found, []);
    assert_eq!(
        (
            html.connections(),
            wrong_path.connections(),
            endless.connections()
        ),
        (1, 1, 1)
    );
    // The endless reply was dropped once it passed the size bound, not at the deadline.
    assert!(elapsed < Duration::from_secs(4), "took {elapsed:?}");
}

#[tokio::test]
async fn an_address_that_is_not_loopback_is_never_contacted() {
    // Listening on every address: any connection the probe opened, by whatever address,
    // would be counted.
    let server = Server::on("0.0.0.0:0", Behaviour::Answer("/api/tags", OLLAMA_TAGS));
    let port = server.port;
    let elsewhere = [
        // On Linux, 0.0.0.0 reaches this machine; it is still not a loopback address.
        format!("http://0.0.0.0:{port}"),
        format!("http://[::ffff:127.0.0.1]:{port}"),
        format!("http://localhost.example.com:{port}"),
        format!("http://192.0.2.1:{port}"),
    ];
    let candidates: Vec<ServerAddress> = elsewhere
        .iter()
        .map(|url| candidate("elsewhere", url.clone(), ProbeApi::OllamaTags))
        .collect();
    let (found, elapsed) = timed_probe(&candidates, Duration::from_secs(5)).await;
    assert_eq!(found, []);
    assert!(elapsed < Duration::from_secs(1), "took {elapsed:?}");

    // The same server through loopback is found and counted. The server accepts in order, so
    // by the time it has answered this connection it has counted any the probe above made:
    // one connection in all means none was (no sleep waits for stragglers).
    let local = [candidate(
        "Ollama",
        format!("http://127.0.0.1:{port}"),
        ProbeApi::OllamaTags,
    )];
    let (found, _) = timed_probe(&local, Duration::from_secs(5)).await;
    assert_eq!(found.len(), 1);
    assert_eq!(
        server.connections(),
        1,
        "a non-loopback candidate was contacted"
    );
}
