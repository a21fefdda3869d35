//! Setup, shell side: the model servers on this machine found, and the choice written to the
//! user's file with Iris started from it.

use iris_studio_tui::action::Action;
use iris_studio_tui::failure::Done;
use iris_studio_tui::features::msgs::{SetupFx, SetupMsg};

use super::fail;
use super::runner::Runner;

impl Runner {
    /// Carries out setup's work.
    pub(super) fn setup(&mut self, fx: SetupFx) {
        match fx {
            SetupFx::Probe => {
                let tx = self.tx.clone();
                tokio::spawn(async move {
                    let found = crate::probe::probe_local_servers().await;
                    let _ = tx.send(Action::Setup(SetupMsg::ServersFound(found)));
                });
            }
            SetupFx::Write { choice } => self.write_setup(choice),
        }
    }

    /// Writes setup's choice into the user file, then builds Iris from the configuration
    /// (flags and environment still apply) and leaves her for the next effect to take up.
    fn write_setup(&self, choice: iris_studio_config::setup::Choice) {
        let (tx, loader, slot) = (self.tx.clone(), self.loader.clone(), self.set_up.clone());
        tokio::task::spawn_blocking(move || {
            let result = (|| -> anyhow::Result<Done> {
                let path = iris_studio_config::user_config_path()
                    .ok_or_else(|| anyhow::anyhow!("no home directory for a config file"))?;
                iris_studio_config::setup::write_choice(&path, &choice)?;
                let file = iris_studio_config::display_path(&path);
                let loader = loader.ok_or_else(|| anyhow::anyhow!("Iris cannot be restarted"))?;
                let iris = loader().map_err(|e| {
                    anyhow::anyhow!("{file} was written, but Iris cannot start with it: {e:#}")
                })?;
                if let Ok(mut slot) = slot.lock() {
                    *slot = Some(iris);
                }
                Ok(Done(format!(
                    "Iris is set up: {} · {} (written to {file})",
                    choice.provider, choice.model
                )))
            })();
            let _ = tx.send(Action::Setup(SetupMsg::Written(fail::typed(result))));
        });
    }
}
