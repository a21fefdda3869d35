//! Whether a provider's server runs on the user's machine (or network) or is hosted: the
//! endpoint's property, not the provider kind's. A local server is usually a small model on
//! a CPU, costs nothing and gets smaller requests; a hosted one is priced and gets the whole
//! evidence. The user's `local = true|false` under a provider overrides what the address says.

use std::net::IpAddr;

use url::Url;

/// Whether a provider's server is local, and why, in words for `iris config`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locality {
    /// A server on this machine or the local network.
    pub local: bool,
    /// Why: "127.0.0.1 is this machine", "set in your config (local = false)".
    pub why: String,
}

/// Names that only a local network (or the machine's container runtime, or a tailnet)
/// resolves.
const LOCAL_SUFFIXES: [&str; 6] = [
    ".internal",
    ".lan",
    ".home.arpa",
    ".localdomain",
    ".ts.net",
    ".docker",
];

/// What an address says: local for loopback, private, link-local and shared (CGNAT,
/// tailnet) addresses, `localhost`, a name of one label or of a local network's domain
/// (`.local`, `.lan`, `.internal`, ...) and a unix socket; hosted otherwise.
pub fn locality_of_url(url: &Url) -> (bool, String) {
    if url.scheme().contains("unix") {
        return (true, "a unix socket is on this machine".to_string());
    }
    let Some(host) = url.host_str() else {
        return (false, "the address names no host".to_string());
    };
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return match address_scope(ip) {
            Some(scope) => (true, format!("{bare} is {scope}")),
            None => (false, format!("{bare} is a public address")),
        };
    }
    let host = bare.trim_end_matches('.').to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        (true, format!("{host} is this machine"))
    } else if host.ends_with(".local") {
        (true, format!("{host} is on the local network (mDNS)"))
    } else if !host.contains('.') {
        // `ollama:11434` in a compose file, `gpu-box` on the LAN: no public name is one label.
        (true, format!("{host} is a name on the local network"))
    } else if LOCAL_SUFFIXES.iter().any(|suffix| host.ends_with(suffix)) {
        (true, format!("{host} is a name on the local network"))
    } else {
        (false, format!("{host} is a hosted service"))
    }
}

/// What kind of local address `ip` is, or `None` for a public one.
fn address_scope(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) if v4.is_loopback() || v4.is_unspecified() => Some("this machine"),
        IpAddr::V4(v4) if v4.is_private() => Some("a private address"),
        IpAddr::V4(v4) if v4.is_link_local() => Some("a link-local address"),
        // 100.64.0.0/10: carrier-grade NAT, and the addresses of a Tailscale tailnet.
        IpAddr::V4(v4) if v4.octets()[0] == 100 && (v4.octets()[1] & 0xc0) == 64 => {
            Some("a shared (CGNAT or tailnet) address")
        }
        IpAddr::V6(v6) if v6.is_loopback() || v6.is_unspecified() => Some("this machine"),
        IpAddr::V6(v6) if v6.is_unique_local() => Some("a private address"),
        IpAddr::V6(v6) if v6.is_unicast_link_local() => Some("a link-local address"),
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .and_then(|v4| address_scope(IpAddr::V4(v4))),
        IpAddr::V4(_) => None,
    }
}

/// A provider's locality: the user's `local` setting when there is one, else what its
/// address says; a provider at its vendor's own endpoint is hosted.
pub fn locality(set: Option<bool>, url: Option<&str>) -> Locality {
    if let Some(local) = set {
        return Locality {
            local,
            why: format!("set in your config (local = {local})"),
        };
    }
    let Some(url) = url else {
        return Locality {
            local: false,
            why: "the provider's own hosted endpoint".to_string(),
        };
    };
    match Url::parse(url) {
        Ok(parsed) => {
            let (local, why) = locality_of_url(&parsed);
            Locality { local, why }
        }
        Err(_) => Locality {
            local: false,
            why: format!("{url} is not a URL Iris can read"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(url: &str) -> bool {
        locality(None, Some(url)).local
    }

    #[test]
    fn the_address_decides() {
        for url in [
            "http://127.0.0.1:8080/v1",
            "http://localhost:11434",
            "http://[::1]:8000/v1",
            "http://0.0.0.0:1234/v1",
            "http://10.1.2.3/v1",
            "http://172.20.0.5:8000/v1",
            "http://192.168.1.20:1234/v1",
            "http://169.254.10.10/v1",
            "http://[fd00::5]/v1",
            "http://[fe80::1]/v1",
            "http://gpu-box.local:8000/v1",
            "http://api.localhost/v1",
            "http+unix://%2Ftmp%2Fllama.sock/v1",
            "http://ollama:11434",
            "http://gpu-box:8000/v1",
            "http://host.docker.internal:11434",
            "http://nas.lan:8080/v1",
            "http://100.101.102.103:11434",
            "http://box.tail1234.ts.net:11434",
        ] {
            assert!(local(url), "{url}");
        }
        for url in [
            "https://openrouter.ai/api/v1",
            "https://api.groq.com/openai/v1",
            "http://8.8.8.8/v1",
            "http://172.32.0.1/v1",
            "https://my-resource.openai.azure.com/openai",
            "http://100.128.0.1/v1",
            "not a url",
        ] {
            assert!(!local(url), "{url}");
        }
    }

    #[test]
    fn the_users_word_wins_and_a_vendor_endpoint_is_hosted() {
        let proxy = locality(Some(false), Some("http://127.0.0.1:4000"));
        assert!(!proxy.local);
        assert!(proxy.why.contains("local = false"), "{}", proxy.why);
        assert!(locality(Some(true), Some("https://gpu.example.com")).local);
        assert!(!locality(None, None).local);
        let why = locality(None, Some("http://127.0.0.1:8080")).why;
        assert_eq!(why, "127.0.0.1 is this machine");
    }
}
