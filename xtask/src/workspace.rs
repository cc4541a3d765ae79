//! What xtask needs to know about the workspace, from `cargo metadata`: where build output
//! goes and which members are primitive crates (every member under `crates/` except `bench`
//! and `tls`), so a new primitive crate is tested without editing xtask.

use std::path::{Path, PathBuf};

use crate::json::Json;
use crate::util;

/// Members under `crates/` that are not primitive crates: they sit on top (`bench` and
/// `rustls-halite` need std; `tls` is `no_std`, and `cargo xtask ci` builds it for the
/// Cortex-M0 on its own).
const NOT_PRIMITIVE: &[&str] = &["bench", "tls", "rustls-halite"];

/// One workspace member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Member {
    /// Package name, as given to `cargo -p`.
    pub(crate) name: String,
    /// Directory holding its `Cargo.toml`.
    pub(crate) dir: PathBuf,
    /// Its integration-test targets (`tests/*.rs`), by name.
    pub(crate) tests: Vec<String>,
}

/// The workspace as cargo sees it.
#[derive(Debug)]
pub(crate) struct Workspace {
    /// The workspace root.
    pub(crate) root: PathBuf,
    /// Where cargo puts build output (honours `CARGO_TARGET_DIR` and config).
    pub(crate) target_dir: PathBuf,
    /// Every member package.
    pub(crate) members: Vec<Member>,
}

impl Workspace {
    /// Asks `cargo metadata --no-deps` about the workspace.
    pub(crate) fn load() -> Result<Workspace, String> {
        let mut cmd = util::cargo();
        cmd.args(["metadata", "--no-deps", "--format-version", "1"]);
        let text = util::output(&mut cmd)?;
        Workspace::from_metadata(&text, &util::workspace_root())
    }

    /// Reads `cargo metadata --no-deps --format-version 1` output; with `--no-deps` the
    /// `packages` list is exactly the workspace members.
    pub(crate) fn from_metadata(text: &str, root: &Path) -> Result<Workspace, String> {
        let json = Json::parse(text).map_err(|e| format!("cargo metadata: {e}"))?;
        let target_dir = json
            .get("target_directory")
            .and_then(Json::as_str)
            .ok_or("cargo metadata: no target_directory")?;
        let packages =
            json.get("packages").and_then(Json::as_array).ok_or("cargo metadata: no packages")?;
        let mut members = Vec::new();
        for package in packages {
            let name = package.get("name").and_then(Json::as_str);
            let manifest = package.get("manifest_path").and_then(Json::as_str);
            let (Some(name), Some(manifest)) = (name, manifest) else {
                return Err("cargo metadata: package without name or manifest_path".into());
            };
            let dir = Path::new(manifest).parent().unwrap_or(Path::new("/")).to_path_buf();
            let tests = package
                .get("targets")
                .and_then(Json::as_array)
                .unwrap_or_default()
                .iter()
                .filter(|t| {
                    t.get("kind")
                        .and_then(Json::as_array)
                        .is_some_and(|kinds| kinds.iter().any(|k| k.as_str() == Some("test")))
                })
                .filter_map(|t| t.get("name").and_then(Json::as_str).map(str::to_owned))
                .collect();
            members.push(Member { name: name.to_owned(), dir, tests });
        }
        members.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Workspace { root: root.to_path_buf(), target_dir: PathBuf::from(target_dir), members })
    }

    /// The primitive crates: members directly under `<root>/crates/`, except `bench` and `tls`.
    pub(crate) fn primitive_crates(&self) -> Vec<&str> {
        let crates_dir = self.root.join("crates");
        self.members
            .iter()
            .filter(|m| m.dir.parent() == Some(crates_dir.as_path()))
            .filter(|m| m.dir.file_name().is_some_and(|d| !NOT_PRIMITIVE.iter().any(|n| d == *n)))
            .map(|m| m.name.as_str())
            .collect()
    }

    /// `names` if given (each must be a member), otherwise every primitive crate.
    pub(crate) fn select_primitives(&self, names: &[String]) -> Result<Vec<String>, String> {
        if names.is_empty() {
            return Ok(self.primitive_crates().into_iter().map(str::to_owned).collect());
        }
        for name in names {
            if !self.members.iter().any(|m| &m.name == name) {
                return Err(format!("`{name}` is not a workspace member"));
            }
        }
        Ok(names.to_vec())
    }
}

/// `-p NAME` for each crate, for a cargo command line.
pub(crate) fn package_args(crates: &[String]) -> Vec<String> {
    crates.iter().flat_map(|c| ["-p".to_owned(), c.clone()]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const METADATA: &str = r#"{"packages":[
        {"name":"xtask","manifest_path":"/w/xtask/Cargo.toml"},
        {"name":"core-hash","manifest_path":"/w/crates/core-hash/Cargo.toml","targets":[
            {"kind":["lib"],"name":"core_hash"},{"kind":["test"],"name":"sha3"},
            {"kind":["bench"],"name":"hashes"}]},
        {"name":"halite-tls","manifest_path":"/w/crates/tls/Cargo.toml"},
        {"name":"m0-kat","manifest_path":"/w/xtask/m0-kat/Cargo.toml"},
        {"name":"bench","manifest_path":"/w/crates/bench/Cargo.toml"},
        {"name":"core-cpu","manifest_path":"/w/crates/core-cpu/Cargo.toml"}],
        "workspace_members":[],"target_directory":"/tmp/t","version":1}"#;

    #[test]
    fn primitives_are_crates_dir_members_except_bench_and_tls() {
        let ws = Workspace::from_metadata(METADATA, Path::new("/w")).unwrap();
        assert_eq!(ws.target_dir, PathBuf::from("/tmp/t"));
        assert_eq!(ws.primitive_crates(), ["core-cpu", "core-hash"]);
        assert_eq!(ws.select_primitives(&[]).unwrap(), ["core-cpu", "core-hash"]);
        assert_eq!(ws.select_primitives(&["core-cpu".into()]).unwrap(), ["core-cpu"]);
        assert!(ws.select_primitives(&["core-nope".into()]).is_err());
        assert_eq!(package_args(&["a".into(), "b".into()]), ["-p", "a", "-p", "b"]);
        let hash = ws.members.iter().find(|m| m.name == "core-hash").unwrap();
        assert_eq!(hash.tests, ["sha3"]);
    }
}
