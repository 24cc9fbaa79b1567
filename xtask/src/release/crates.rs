//! The crates a release publishes, read from the workspace (`cargo metadata`), never
//! written by hand: every member whose `publish` is not `false`, in dependency order
//! (each after the workspace crates it depends on), with the manifest fields crates.io
//! and docs.rs show checked.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde_json::Value;

use crate::cmd::{cargo, output};

/// One published crate of the workspace.
#[derive(Debug, Clone)]
pub struct Crate {
    /// Its package name.
    pub name: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Whether it has a library target (a public API and docs on docs.rs).
    pub has_lib: bool,
    /// Its features, `default` left out.
    pub features: Vec<String>,
}

/// The workspace's members as `cargo metadata --no-deps` describes them.
pub fn metadata() -> Result<Value, String> {
    let text = output(&mut cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
        "--offline",
    ]))?;
    serde_json::from_str(&text).map_err(|e| format!("cargo metadata: {e}"))
}

/// The published crates in the order they must be published: each after the
/// workspace crates it needs to build (normal and build dependencies; dev-dependencies
/// are not needed by users and unpublished ones are stripped by `cargo package`).
/// Ties are broken by name, so the order is stable. An error says what is wrong: a
/// published crate that needs an unpublished one, or a dependency circle.
pub fn published(metadata: &Value) -> Result<Vec<Crate>, String> {
    let packages = metadata["packages"]
        .as_array()
        .ok_or("cargo metadata has no packages")?;
    let mut all = BTreeMap::new();
    for package in packages {
        let name = package["name"].as_str().ok_or("a package without a name")?;
        all.insert(name.to_string(), package);
    }
    // `publish`: null for anywhere, a list of registries, or [] for `publish = false`.
    let is_published =
        |p: &Value| !matches!(&p["publish"], Value::Array(registries) if registries.is_empty());
    let mut needs: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    for (name, package) in &all {
        if !is_published(package) {
            continue;
        }
        let mut deps = BTreeSet::new();
        for dep in package["dependencies"].as_array().into_iter().flatten() {
            let dep_name = dep["name"].as_str().unwrap_or_default();
            let Some(target) = all.get(dep_name) else {
                continue; // from crates.io
            };
            let dev = dep["kind"].as_str() == Some("dev");
            if is_published(target) {
                if !dev {
                    deps.insert(dep_name.to_string());
                }
            } else if !dev {
                problems.push(format!(
                    "{name} depends on {dep_name}, which is not published (`publish = false`)"
                ));
            } else if dep["req"].as_str() != Some("*") {
                // `cargo package` strips a path dev-dependency only when it has no version.
                problems.push(format!(
                    "{name}: its dev-dependency {dep_name} is not published, so it must \
                     have no version (`cargo package` then leaves it out)"
                ));
            }
        }
        needs.insert(name.clone(), deps);
    }
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    let mut order = Vec::new();
    let mut done = BTreeSet::new();
    while done.len() < needs.len() {
        // The first crate by name whose workspace dependencies are all placed.
        let next = needs
            .iter()
            .find(|(name, deps)| !done.contains(*name) && deps.is_subset(&done))
            .map(|(name, _)| name.clone());
        let Some(name) = next else {
            let left: Vec<_> = needs.keys().filter(|n| !done.contains(*n)).collect();
            return Err(format!("dependency circle among {left:?}"));
        };
        let package = all[&name];
        let manifest = package["manifest_path"].as_str().unwrap_or_default();
        let targets = package["targets"].as_array().into_iter().flatten();
        order.push(Crate {
            name: name.clone(),
            dir: PathBuf::from(manifest)
                .parent()
                .map(PathBuf::from)
                .unwrap_or_default(),
            has_lib: targets
                .flat_map(|t| t["kind"].as_array().into_iter().flatten())
                .any(|k| k.as_str() == Some("lib")),
            features: package["features"]
                .as_object()
                .into_iter()
                .flat_map(|f| f.keys())
                .filter(|f| *f != "default")
                .cloned()
                .collect(),
        });
        done.insert(name);
    }
    Ok(order)
}

/// The manifest fields crates.io and docs.rs show, for every published crate: a
/// description, license, repository, documentation link, keywords (at most five),
/// categories, a readme that exists, and docs.rs building with every feature.
pub fn check_manifests(metadata: &Value, crates: &[Crate]) -> Result<(), String> {
    let mut problems = Vec::new();
    for krate in crates {
        let Some(package) = metadata["packages"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["name"].as_str() == Some(&krate.name))
        else {
            problems.push(format!("{}: not in cargo metadata", krate.name));
            continue;
        };
        let name = &krate.name;
        for field in ["description", "license", "repository", "documentation"] {
            if package[field].as_str().is_none_or(str::is_empty) {
                problems.push(format!("{name}: no `{field}` in its Cargo.toml"));
            }
        }
        match package["keywords"].as_array().map(Vec::len) {
            Some(1..=5) => {}
            _ => problems.push(format!("{name}: `keywords` must list one to five words")),
        }
        if package["categories"].as_array().is_none_or(Vec::is_empty) {
            problems.push(format!("{name}: no `categories` in its Cargo.toml"));
        }
        match package["readme"].as_str() {
            Some(readme) if krate.dir.join(readme).is_file() => {}
            Some(readme) => problems.push(format!("{name}: its readme {readme} is missing")),
            None => problems.push(format!("{name}: no `readme` in its Cargo.toml")),
        }
        if package["metadata"]["docs"]["rs"]["all-features"] != Value::Bool(true) {
            problems.push(format!(
                "{name}: no `[package.metadata.docs.rs] all-features = true`"
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::root;

    fn names(crates: &[Crate]) -> Vec<&str> {
        crates.iter().map(|c| c.name.as_str()).collect()
    }

    /// Every member manifest without `publish = false`, read as text (not through
    /// `cargo metadata`), is in the release list, after each workspace crate it depends
    /// on; and nothing unpublished is.
    #[test]
    fn every_publishable_crate_is_released_in_dependency_order() {
        let metadata = metadata().unwrap();
        let crates = published(&metadata).unwrap();
        let order = names(&crates);
        let mut publishable = BTreeSet::new();
        for dir in ["crates", "tests", "xtask", "bench/peers"] {
            let mut manifests = vec![root().join(dir).join("Cargo.toml")];
            if let Ok(entries) = std::fs::read_dir(root().join(dir)) {
                manifests.extend(entries.map(|e| e.unwrap().path().join("Cargo.toml")));
            }
            for manifest in manifests.iter().filter(|m| m.is_file()) {
                let text = std::fs::read_to_string(manifest).unwrap();
                let name = text
                    .lines()
                    .find_map(|l| l.trim().strip_prefix("name = "))
                    .unwrap()
                    .trim_matches('"')
                    .to_string();
                if !text.lines().any(|l| l.trim() == "publish = false") {
                    publishable.insert(name);
                }
            }
        }
        let listed: BTreeSet<String> = order.iter().map(|n| n.to_string()).collect();
        assert_eq!(
            listed, publishable,
            "the release list (cargo metadata) and the manifests disagree"
        );
        for must in ["pgnkit", "pgnkit-cli", "pgnkit-input", "pgnkit-select"] {
            assert!(order.contains(&must), "{must} is not released: {order:?}");
        }
        for (i, krate) in crates.iter().enumerate() {
            let text = std::fs::read_to_string(krate.dir.join("Cargo.toml")).unwrap();
            let deps = text
                .lines()
                .skip_while(|l| l.trim() != "[dependencies]")
                .skip(1)
                .take_while(|l| !l.starts_with('['))
                .filter_map(|l| l.split(['=', '.']).next())
                .map(str::trim)
                .filter(|d| listed.contains(*d));
            for dep in deps {
                let at = order.iter().position(|n| *n == dep).unwrap();
                assert!(
                    at < i,
                    "{} comes before its dependency {dep}: {order:?}",
                    krate.name
                );
            }
        }
    }

    #[test]
    fn every_published_crate_has_its_crates_io_metadata() {
        let metadata = metadata().unwrap();
        let crates = published(&metadata).unwrap();
        check_manifests(&metadata, &crates).unwrap();
    }

    /// A made-up workspace: the order follows the dependencies, and a published crate
    /// that needs an unpublished one is an error naming both.
    #[test]
    fn order_and_unpublished_dependencies() {
        let package = |name: &str, publish: Value, deps: &[(&str, Option<&str>)]| {
            serde_json::json!({
                "name": name,
                "publish": publish,
                "manifest_path": format!("/w/{name}/Cargo.toml"),
                "targets": [{"kind": ["lib"]}],
                "features": {"default": [], "x": []},
                "dependencies": deps.iter().map(|(d, kind)| serde_json::json!({
                    "name": d, "kind": kind, "req": "^0.1",
                })).collect::<Vec<_>>(),
            })
        };
        let workspace = serde_json::json!({"packages": [
            package("z-top", Value::Null, &[("b-mid", None), ("serde", None)]),
            package("b-mid", Value::Null, &[("y-base", None)]),
            package("y-base", Value::Null, &[]),
            package("a-side", Value::Null, &[("y-base", None), ("z-top", Some("dev"))]),
            package("tool", serde_json::json!([]), &[("z-top", None)]),
        ]});
        let crates = published(&workspace).unwrap();
        assert_eq!(names(&crates), ["y-base", "a-side", "b-mid", "z-top"]);
        assert_eq!(crates[0].features, ["x"]);

        let broken = serde_json::json!({"packages": [
            package("lib", Value::Null, &[("helper", None)]),
            package("helper", serde_json::json!([]), &[]),
        ]});
        let err = published(&broken).unwrap_err();
        assert!(
            err.contains("lib depends on helper, which is not published"),
            "{err}"
        );
    }
}
