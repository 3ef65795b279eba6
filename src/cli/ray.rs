//! `--ray ADDRESS` of `plateau tournament`, `plateau match` and `plateau spsa`: the job handed to the Ray cluster
//! driver of the Python package (`python3 -m plateau.cluster JOB`, docs/cluster.md) with the command's other words.

/// `plateau JOB --ray ADDRESS ARGS`: `python3 -m plateau.cluster JOB ARGS --address ADDRESS` (the interpreter of
/// `$PLATEAU_PYTHON`, default `python3`), its exit code passed on.
pub(crate) fn run_on_ray(job: &str, address: &str) -> anyhow::Result<()> {
    let mut words = Vec::new();
    let mut found = false;
    let mut args = std::env::args().skip_while(|w| w != job).skip(1);
    while let Some(w) = args.next() {
        if w == "--ray" {
            found = true;
            args.next();
        } else if w.starts_with("--ray=") {
            found = true;
        } else {
            words.push(w);
        }
    }
    if !found {
        // Called with other words than the process's (the Python bindings' `run`): the cluster driver is Python's.
        anyhow::bail!(
            "--ray works on the command line only; from Python use python -m plateau.cluster (docs/cluster.md)"
        );
    }
    let python = std::env::var("PLATEAU_PYTHON").unwrap_or_else(|_| "python3".into());
    let status = std::process::Command::new(&python)
        .args(["-m", "plateau.cluster", job])
        .args(&words)
        .args(["--address", address])
        .status()
        .map_err(|e| anyhow::anyhow!("--ray: cannot run {python} -m plateau.cluster ({e}); install the plateau Python package with ray (docs/cluster.md)"))?;
    if !status.success() {
        std::process::exit(status.code().unwrap_or(1));
    }
    Ok(())
}
