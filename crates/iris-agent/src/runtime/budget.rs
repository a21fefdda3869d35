//! `max_cost_per_run`: a run stops before a request that would take its cost past the cap.
//!
//! The cost so far is the input of the requests sent (the larger of their estimate, four
//! characters a token, and what the provider reported) and the output the provider reported,
//! at the model's prices. The next request's input is estimated from its body before it goes.

use std::sync::{Arc, Mutex};

use reqwest::{Request, Response};
use reqwest_middleware::{Middleware, Next};

use iris_config::prices::Price;

/// What a run may spend, and what it has.
#[derive(Debug)]
pub struct Budget {
    price: Price,
    /// US dollars.
    cap: f64,
    spent: Mutex<Spent>,
    /// A request was held back: the run's failure is the cap's, not the provider's.
    held_back: std::sync::atomic::AtomicBool,
}

#[derive(Debug, Default, Clone, Copy)]
struct Spent {
    requests: u64,
    estimated_input: u64,
    reported_input: u64,
    output: u64,
    /// What the provider said its replies cost, in US dollars, when it says.
    reported_cost: f64,
}

impl Spent {
    fn cost(&self, price: &Price) -> f64 {
        let input = self.estimated_input.max(self.reported_input);
        price.cost(input, 0, self.output).max(self.reported_cost)
    }
}

/// Why a run was stopped before a request.
#[derive(Debug, thiserror::Error)]
#[error(
    "stopped before request {request}: it would take the run to about ${would:.4}, past \
     max_cost_per_run (${cap:.4}); spent so far about ${spent:.4}. Raise max_cost_per_run, or \
     see what a request holds with --dry-run"
)]
pub struct OverBudget {
    /// The number of the request held back, counted from 1 in the run.
    pub request: u64,
    /// About what the run would have cost with it, in US dollars.
    pub would: f64,
    /// `max_cost_per_run`, in US dollars.
    pub cap: f64,
    /// About what the run had cost before it, in US dollars.
    pub spent: f64,
}

impl Budget {
    /// A budget of `cap_dollars` US dollars for each run, at the model's `price`.
    pub fn new(price: Price, cap_dollars: f64) -> Self {
        Self {
            price,
            cap: cap_dollars,
            spent: Mutex::new(Spent::default()),
            held_back: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// A new run starts with nothing spent.
    pub fn reset(&self) {
        if let Ok(mut spent) = self.spent.lock() {
            *spent = Spent::default();
        }
        self.held_back
            .store(false, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether a request of this run was held back for passing the cap.
    pub fn held_back(&self) -> bool {
        self.held_back.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// What the provider reported for a reply.
    pub fn answered(&self, input: u64, output: u64) {
        if let Ok(mut spent) = self.spent.lock() {
            spent.reported_input += input;
            spent.output += output;
        }
    }

    /// What the provider said a reply cost (OpenRouter's `usage.cost`): the run has spent at
    /// least what the replies cost by its own account.
    pub fn cost_reported(&self, dollars: f64) {
        if let Ok(mut spent) = self.spent.lock() {
            spent.reported_cost += dollars;
        }
    }

    /// Lets a request of `body_chars` characters go, counting its input, unless it would take
    /// the run past the cap.
    fn admit(&self, body_chars: usize) -> Result<(), OverBudget> {
        let Ok(mut spent) = self.spent.lock() else {
            return Ok(());
        };
        let estimate = body_chars.div_ceil(4) as u64;
        let before = spent.cost(&self.price);
        let mut after = *spent;
        after.requests += 1;
        // The input sent so far, as the larger of the two counts, and this request's on top.
        after.estimated_input = spent.estimated_input.max(spent.reported_input) + estimate;
        // A cost the provider reported stands for the replies so far; this request adds.
        let would = after
            .cost(&self.price)
            .max(spent.reported_cost + self.price.cost(estimate, 0, 0));
        if would > self.cap {
            self.held_back
                .store(true, std::sync::atomic::Ordering::Relaxed);
            return Err(OverBudget {
                request: after.requests,
                would,
                cap: self.cap,
                spent: before,
            });
        }
        *spent = after;
        Ok(())
    }
}

/// The middleware that holds a request back when it would pass the cap.
#[derive(Debug, Clone)]
pub struct CostCap(pub Arc<Budget>);

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

    const PRICE: Price = Price {
        input: 1000.0,
        cached_input: 1000.0,
        output: 2000.0,
    };

    #[test]
    fn a_request_that_would_pass_the_cap_is_held_back() {
        // $1000 per million input tokens: 4,000 characters (1,000 tokens) cost $1.
        let budget = Budget::new(PRICE, 2.5);
        assert!(budget.admit(4_000).is_ok());
        budget.answered(1_000, 100); // and $0.20 of output
        assert!(!budget.held_back());
        let over = budget.admit(6_000).expect_err("$1.20 + $1.50 passes $2.50");
        assert!(budget.held_back(), "the run's failure is the cap's");
        assert_eq!(over.request, 2);
        assert!((over.spent - 1.2).abs() < 1e-9, "{over}");
        assert!((over.would - 2.7).abs() < 1e-9, "{over}");
        assert!(
            over.to_string().starts_with("stopped before request 2"),
            "{over}"
        );
        // A smaller one still fits; a new run starts from nothing.
        assert!(budget.admit(4_000).is_ok());
        budget.reset();
        assert!(!budget.held_back());
        assert!(budget.admit(8_000).is_ok());
    }

    #[test]
    fn a_provider_counting_more_than_the_estimate_counts() {
        let budget = Budget::new(PRICE, 3.0);
        assert!(budget.admit(400).is_ok()); // estimated 100 tokens
        budget.answered(2_000, 0); // the provider counted 2,000
        assert!(budget.admit(4_000).is_ok()); // $2 + $1 = $3, not past
        assert!(budget.admit(4).is_err());
    }

    #[test]
    fn a_cost_the_provider_reports_counts_when_it_is_more() {
        let budget = Budget::new(PRICE, 3.0);
        assert!(budget.admit(400).is_ok()); // $0.10 by the price
        budget.cost_reported(2.95);
        assert!(budget.admit(400).is_err(), "$2.95 + $0.10 passes $3");
    }
}
