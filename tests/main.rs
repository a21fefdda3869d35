//! The end-to-end tests of the `iris` binary, one test binary: each file is a module about one
//! command or concern, and they share `common` (the binary run in temporary repositories, the
//! fake provider, scripted agent runs, a pseudo-terminal). One binary, because each
//! integration test binary links the whole application: thirty of them cost thirty links on
//! every change. Each crate's own tests are beside it, in `crates/*/tests` and its modules.

// End-to-end tests run the real binary, git and fake tools directly.
#![allow(clippy::disallowed_methods)]

mod common;

mod agent_cli;
mod agent_faults;
mod agent_real_models;
mod agent_sessions;
mod candidates;
mod ci_pipelines;
mod cli;
mod cli_agents;
mod commit_rules_agent;
mod config;
mod config_init;
mod controls;
mod cost_cap;
mod docs_commands;
mod docs_links;
mod docs_reference;
mod doctor;
mod dry_run;
mod eval;
mod explain;
mod fake_provider;
mod field;
mod front_ends;
mod gen_check;
mod git_diff;
mod git_tools;
mod history_prose;
mod history_sample;
mod hook;
mod jj;
mod language;
mod layers;
mod linked_issues;
mod mcp;
mod odd_states;
mod packages;
mod planted_git;
mod pr_template;
mod providers;
mod publish;
mod readme;
mod readme_pictures;
mod release;
mod review_checks;
mod review_confidence;
mod review_formats;
mod review_memory;
mod revisions;
mod safety;
mod secret_scan;
mod setup_probe;
mod split;
mod stacks;
mod studio_headless;
mod studio_pty;
mod ticket;
mod workspace_tools;
