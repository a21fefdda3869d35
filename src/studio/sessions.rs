//! The coding agent's sessions, shell side: Iris gets what the user asked their coding agent
//! while making the change when they said yes; while nobody has said, a session found for the
//! change is told to the studio, which asks once; the answer is remembered for the
//! repository.

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::mpsc::UnboundedSender;

use crate::app::Workspace;
use crate::app::sessions::{self, Consent, Env, Face, Look};
use crate::app::stores::{IrisDir, agent_sessions};
use iris_studio_agent::IrisAgent;
use iris_studio_agent::capability::requests::Scope;
use iris_studio_tui::action::Action;
use iris_studio_tui::features::msgs::{SessionsFx, SessionsMsg};

use super::runner::Runner;

/// The studio's sessions: where the agents keep them, and what the user said about them.
#[derive(Debug, Clone)]
pub struct Sessions {
    env: Env,
    consent: Consent,
    stores: IrisDir,
    root: PathBuf,
}

impl Sessions {
    /// As the workspace's configuration and remembered answer say, the agents' folders as the
    /// process's environment says.
    pub fn of(ws: &Workspace) -> Self {
        Self::with_env(ws, Env::from_process())
    }

    /// The same with the agents' folders (and whether this is CI) as `env` says.
    pub fn with_env(ws: &Workspace, env: Env) -> Self {
        Self {
            consent: sessions::consent(&ws.config, &ws.stores, &env, Face::User),
            env,
            stores: ws.stores.clone(),
            root: ws.root.clone(),
        }
    }

    /// `iris` for writing over `scope`: with the user's words when they said yes; when
    /// nobody said and a session is found, the studio is told (`tx`), and she writes without
    /// them this time.
    pub(super) async fn apply(
        &self,
        iris: Arc<IrisAgent>,
        scope: &Scope,
        tx: &UnboundedSender<Action>,
    ) -> Arc<IrisAgent> {
        if self.consent == Consent::No {
            return iris;
        }
        let (consent, env, root) = (self.consent, self.env.clone(), self.root.clone());
        let scope = scope.clone();
        let look = tokio::task::spawn_blocking(move || {
            let repo = iris_studio_git::GitRepo::discover(&root).ok()?;
            Some(sessions::look(consent, &repo, &root, &scope, &env))
        });
        match look.await.ok().flatten() {
            Some(Look::Send(section)) => Arc::new((*iris).clone().with_sessions(section)),
            Some(Look::Found(agents)) => {
                let _ = tx.send(Action::Sessions(SessionsMsg::Found(agents.join(", "))));
                iris
            }
            _ => iris,
        }
    }
}

impl Runner {
    /// Carries out the sessions feature's work: the user's answer, remembered.
    pub(super) fn sessions(&mut self, fx: SessionsFx) {
        match fx {
            SessionsFx::Remember { yes } => {
                // Holds from the next write on; the file is written off the UI thread.
                self.sessions.consent = if yes { Consent::Yes } else { Consent::No };
                let stores = self.sessions.stores.clone();
                tokio::task::spawn_blocking(move || agent_sessions::remember_answer(&stores, yes));
            }
        }
    }

    /// The sessions read from `env` instead of the process's environment (a test's HOME).
    pub fn with_agent_sessions(mut self, ws: &Workspace, env: Env) -> Self {
        self.sessions = Sessions::with_env(ws, env);
        self
    }
}
