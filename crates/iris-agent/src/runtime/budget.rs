//! `max_cost_per_run`: what one command may spend, across every conversation it starts
//! (candidates, the critic, review aspects, subagents, retries).
//!
//! Before a request goes it reserves what it could cost: its input (estimated from its body,
//! four characters a token) and its whole output budget at the output price. A request whose
//! reservation would take the command past the cap is held back, so requests sent together
//! cannot pass the cap together. When the reply's usage arrives the reservation becomes what
//! was spent (the larger of the estimated and the reported input, and the reported output)
//! and the rest is given back. A stream that would pass the cap is cut there.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use reqwest::{Request, Response};
use reqwest_middleware::{Middleware, Next};

use iris_studio_config::prices::Price;

/// What a command may spend, what it has spent and what its requests in flight hold.
#[derive(Debug)]
pub struct Budget {
    price: Price,
    /// US dollars.
    cap: f64,
    ledger: Mutex<Ledger>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Ledger {
    requests: u64,
    /// What the replies so far cost at the model's prices.
    spent: f64,
    /// What the requests in flight may still cost.
    reserved: f64,
    /// What the provider said its replies cost, when it says (OpenRouter's `usage.cost`).
    reported_cost: f64,
}

impl Ledger {
    /// Spent so far: by the prices, or by the provider's own account when that is more.
    fn spent(&self) -> f64 {
        self.spent.max(self.reported_cost)
    }
}

/// Why a request was held back.
#[derive(Debug, thiserror::Error)]
#[error(
    "stopped before request {request}: it could take the run to about ${would:.4}, past \
     max_cost_per_run (${cap:.4}); spent so far about ${spent:.4}. Raise max_cost_per_run, or \
     see what a request holds with --dry-run"
)]
pub struct OverBudget {
    /// The number of the request held back, counted from 1 in the command.
    pub request: u64,
    /// About what the command could cost with it (spent, held by requests in flight, and
    /// this one's input and output budget), in US dollars.
    pub would: f64,
    /// `max_cost_per_run`, in US dollars.
    pub cap: f64,
    /// About what the command had spent before it, in US dollars.
    pub spent: f64,
}

/// What one request in flight holds of the budget.
#[derive(Debug, Clone, Copy)]
struct Reservation {
    dollars: f64,
    input_estimate: u64,
}

impl Budget {
    /// A budget of `cap_dollars` US dollars for one command, at the model's `price`.
    pub fn new(price: Price, cap_dollars: f64) -> Self {
        Self {
            price,
            cap: cap_dollars,
            ledger: Mutex::new(Ledger::default()),
        }
    }

    /// About what the command has spent, in US dollars (requests in flight not counted).
    pub fn spent(&self) -> f64 {
        self.ledger.lock().map_or(0.0, |l| l.spent())
    }

    /// What the provider said a reply cost: the command has spent at least what the replies
    /// cost by its own account.
    pub fn cost_reported(&self, dollars: f64) {
        if let Ok(mut ledger) = self.ledger.lock() {
            ledger.reported_cost += dollars;
        }
    }

    /// Reserves what a request of `body_chars` characters with `output_budget` tokens of
    /// output could cost, unless that would take the command past the cap.
    fn reserve(&self, body_chars: usize, output_budget: u64) -> Result<Reservation, OverBudget> {
        let input_estimate = body_chars.div_ceil(4) as u64;
        let dollars = self.price.cost(input_estimate, 0, output_budget);
        let Ok(mut ledger) = self.ledger.lock() else {
            return Ok(Reservation {
                dollars: 0.0,
                input_estimate,
            });
        };
        ledger.requests += 1;
        let would = ledger.spent() + ledger.reserved + dollars;
        if would > self.cap {
            return Err(OverBudget {
                request: ledger.requests,
                would,
                cap: self.cap,
                spent: ledger.spent(),
            });
        }
        ledger.reserved += dollars;
        Ok(Reservation {
            dollars,
            input_estimate,
        })
    }

    /// A request's reservation becomes what it spent: `input` and `output` tokens as the
    /// provider reported them (the input no less than estimated); the rest is given back.
    fn settle(&self, reservation: Reservation, input: u64, output: u64) {
        if let Ok(mut ledger) = self.ledger.lock() {
            ledger.reserved = (ledger.reserved - reservation.dollars).max(0.0);
            ledger.spent += self
                .price
                .cost(input.max(reservation.input_estimate), 0, output);
        }
    }

    /// Tokens reported with no request in flight to settle (rig's totals at a run's end).
    fn spend(&self, input: u64, output: u64) {
        if let Ok(mut ledger) = self.ledger.lock() {
            ledger.spent += self.price.cost(input, 0, output);
        }
    }

    /// Whether `output` tokens more on top of what `reservation`'s request was sent with
    /// would take the command past the cap (a stream the provider does not keep to its
    /// output budget).
    fn would_pass(&self, reservation: Reservation, output: u64) -> bool {
        let Ok(ledger) = self.ledger.lock() else {
            return false;
        };
        let others = ledger.spent() + ledger.reserved - reservation.dollars;
        others + self.price.cost(reservation.input_estimate, 0, output) > self.cap
    }
}

/// One conversation's account with its command's [`Budget`]: the reservation of its request
/// in flight (a conversation sends one request at a time), and whether the cap stopped it.
#[derive(Debug, Clone)]
pub struct Meter(Arc<MeterState>);

#[derive(Debug)]
struct MeterState {
    budget: Arc<Budget>,
    /// The output budget every request of the conversation is sent with.
    output_budget: u64,
    open: Mutex<Option<Reservation>>,
    /// A request was held back, or a stream cut, for the cap: the conversation's failure is
    /// the cap's, not the provider's.
    stopped: AtomicBool,
}

impl Meter {
    /// A conversation on `budget` whose requests ask for at most `output_budget` tokens.
    pub fn new(budget: Arc<Budget>, output_budget: u64) -> Self {
        Self(Arc::new(MeterState {
            budget,
            output_budget,
            open: Mutex::new(None),
            stopped: AtomicBool::new(false),
        }))
    }

    /// Whether the cap stopped this conversation.
    pub fn stopped(&self) -> bool {
        self.0.stopped.load(Ordering::Relaxed)
    }

    /// Lets a request of `body_chars` characters go with its reservation, unless the cap
    /// holds it back. A request before it that was never answered is settled at its input.
    fn admit(&self, body_chars: usize) -> Result<(), OverBudget> {
        self.close();
        match self.0.budget.reserve(body_chars, self.0.output_budget) {
            Ok(reservation) => {
                if let Ok(mut open) = self.0.open.lock() {
                    *open = Some(reservation);
                }
                Ok(())
            }
            Err(over) => {
                self.0.stopped.store(true, Ordering::Relaxed);
                Err(over)
            }
        }
    }

    /// The provider's usage for the reply to the request in flight.
    pub fn answered(&self, input: u64, output: u64) {
        match self.0.open.lock().ok().and_then(|mut open| open.take()) {
            Some(reservation) => self.0.budget.settle(reservation, input, output),
            None => self.0.budget.spend(input, output),
        }
    }

    /// What the provider said a reply cost (see [`Budget::cost_reported`]).
    pub fn cost_reported(&self, dollars: f64) {
        self.0.budget.cost_reported(dollars);
    }

    /// Whether the reply being streamed, `output` tokens so far, would take the command past
    /// the cap; if so the conversation counts as stopped by it.
    pub fn would_pass(&self, output: u64) -> bool {
        let Some(reservation) = self.0.open.lock().ok().and_then(|open| *open) else {
            return false;
        };
        let over = output > self.0.output_budget && self.0.budget.would_pass(reservation, output);
        if over {
            self.0.stopped.store(true, Ordering::Relaxed);
        }
        over
    }

    /// The conversation is over: a request never answered is settled at its estimated
    /// input, and its output reservation given back.
    pub fn close(&self) {
        if let Some(reservation) = self.0.open.lock().ok().and_then(|mut open| open.take()) {
            self.0.budget.settle(reservation, 0, 0);
        }
    }
}

/// The middleware that holds a request back when it would pass the cap.
#[derive(Debug, Clone)]
pub struct CostCap(pub Meter);

#[async_trait::async_trait]
impl Middleware for CostCap {
    async fn handle(
        &self,
        req: Request,
        extensions: &mut http::Extensions,
        next: Next<'_>,
    ) -> reqwest_middleware::Result<Response> {
        let chars = req
            .body()
            .and_then(|b| b.as_bytes())
            .map_or(0, |b| String::from_utf8_lossy(b).chars().count());
        self.0
            .admit(chars)
            .map_err(|over| reqwest_middleware::Error::Middleware(over.into()))?;
        next.run(req, extensions).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// $1000 per million input tokens: 4,000 characters (1,000 tokens) cost $1; output
    /// $2000 per million: 100 tokens cost $0.20.
    const PRICE: Price = Price {
        input: 1000.0,
        cached_input: 1000.0,
        output: 2000.0,
    };

    fn meter(budget: &Arc<Budget>, output_budget: u64) -> Meter {
        Meter::new(budget.clone(), output_budget)
    }

    #[test]
    fn a_request_reserves_its_output_budget_and_gets_back_what_it_did_not_spend() {
        let budget = Arc::new(Budget::new(PRICE, 2.5));
        let first = meter(&budget, 500); // $1 of input and $1 of output reserved
        assert!(first.admit(4_000).is_ok());
        // Another conversation at the same time cannot reserve as much again.
        let second = meter(&budget, 500);
        let over = second.admit(4_000).expect_err("$2 held + $2 passes $2.50");
        assert!(second.stopped() && !first.stopped());
        assert_eq!(over.request, 2);
        assert!((over.would - 4.0).abs() < 1e-9, "{over}");
        assert!(
            over.to_string().starts_with("stopped before request 2"),
            "{over}"
        );
        // The reply spent 100 output tokens: $1.20, and the rest is free again.
        first.answered(1_000, 100);
        assert!((budget.spent() - 1.2).abs() < 1e-9);
        let third = meter(&budget, 100); // $0.25 + $0.20
        assert!(third.admit(1_000).is_ok());
        assert!(meter(&budget, 500).admit(1_000).is_err(), "$1.65 + $1.25");
        // A request never answered counts its input when the conversation ends.
        third.close();
        assert!((budget.spent() - 1.45).abs() < 1e-9, "{}", budget.spent());
    }

    #[test]
    fn a_provider_counting_more_than_the_estimate_counts() {
        let budget = Arc::new(Budget::new(PRICE, 3.0));
        let meter = meter(&budget, 0);
        assert!(meter.admit(400).is_ok()); // estimated 100 tokens
        meter.answered(2_000, 0); // the provider counted 2,000
        assert!(meter.admit(4_000).is_ok()); // $2 + $1 = $3, not past
        meter.answered(1_000, 0);
        assert!(meter.admit(4).is_err());
    }

    #[test]
    fn a_cost_the_provider_reports_counts_when_it_is_more() {
        let budget = Arc::new(Budget::new(PRICE, 3.0));
        let meter = meter(&budget, 0);
        assert!(meter.admit(400).is_ok()); // $0.10 by the price
        meter.answered(100, 0);
        budget.cost_reported(2.95);
        assert!(meter.admit(400).is_err(), "$2.95 + $0.10 passes $3");
    }

    #[test]
    fn a_stream_past_its_output_budget_is_cut_where_it_would_pass_the_cap() {
        let budget = Arc::new(Budget::new(PRICE, 1.5));
        let meter = meter(&budget, 100); // $1 + $0.20
        assert!(meter.admit(4_000).is_ok());
        assert!(!meter.would_pass(100), "within its budget");
        assert!(!meter.would_pass(250), "$1.50 is not past");
        assert!(!meter.stopped());
        assert!(meter.would_pass(251));
        assert!(meter.stopped(), "the failure is the cap's");
    }
}
