//! Incremental building of a report: environments, suites and tests are looked up in hash maps
//! and the suite tree grows as tests arrive, so adding 100,000 tests is linear.

use std::collections::HashMap;

use serde::Deserialize;

use super::model::*;
use crate::error::{Error, Result};

/// What `new ReportBuilder(init)` takes.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReportInit {
    pub category: String,
    pub commit_id: String,
    #[serde(default)]
    pub start_timestamp: Option<u64>,
    #[serde(default)]
    pub duration: Option<u64>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub config_path: Option<String>,
    #[serde(default)]
    pub related_commit_ids: Option<Vec<String>>,
    #[serde(default)]
    pub generated_by: Option<NameVersion>,
    #[serde(default)]
    pub test_runner: Option<NameVersion>,
    #[serde(default)]
    pub runtime: Option<NameVersion>,
    #[serde(default)]
    pub cpu_count: Option<u64>,
    #[serde(default)]
    pub ram_bytes: Option<u64>,
}

/// What `addTest` takes: the suite titles then the test title, and where it is.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestInput {
    pub title_path: Vec<String>,
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub line: Option<u32>,
    #[serde(default)]
    pub column: Option<u32>,
    #[serde(default)]
    pub tags: Option<Vec<String>>,
}

/// What `addAttachment` takes.
#[derive(Debug, Clone, Default)]
pub struct AttachmentInput {
    pub name: String,
    pub content_type: String,
    pub data: Vec<u8>,
}

/// The suite node a test lives in: `TOP` for tests outside any suite, else an index into
/// `ReportBuilder::nodes`.
const TOP: u32 = u32::MAX;

/// Where a test added by `add_test` is: its node and its position in that node's tests.
#[derive(Clone, Copy)]
struct TestSlot {
    node: u32,
    index: u32,
}

/// Builds a valid report step by step. The suite tree is grown as tests arrive (suites and tests
/// in first-seen order), so there is one copy of every test; `encode` serializes that tree
/// straight into the Brotli encoder.
pub struct ReportBuilder {
    init: ReportInit,
    environments: Vec<Environment>,
    env_index: HashMap<String, usize>,
    /// The top-level suites and the tests outside any suite.
    suites: Vec<Suite>,
    top_tests: Vec<Test>,
    /// Per suite node, the child positions leading to it from `suites`.
    nodes: Vec<Vec<u32>>,
    /// (parent node, suite type, title) -> node.
    node_index: HashMap<(u32, SuiteType, String), u32>,
    tests: Vec<TestSlot>,
    /// (node, test title) -> handle.
    test_index: HashMap<(u32, String), usize>,
    /// Smallest attempt start and largest attempt end, for the report's own timing.
    first_start: Option<u64>,
    last_end: Option<u64>,
    attachments: Vec<(Attachment, Vec<u8>)>,
    attachment_index: HashMap<String, usize>,
}

impl ReportBuilder {
    pub fn new(init: ReportInit) -> Result<Self> {
        if !crate::limits::is_valid_commit_id(&init.commit_id) {
            return Err(Error::invalid_input(format!(
                "commitId must be a full git SHA-1 (40 lowercase hex characters), got {:?}",
                init.commit_id
            )));
        }
        if init.category.is_empty() || init.category.chars().count() > crate::limits::CATEGORY_MAX_LEN {
            return Err(Error::invalid_input("category must be 1 to 100 characters, e.g. \"playwright\""));
        }
        Ok(ReportBuilder {
            init,
            environments: Vec::new(),
            env_index: HashMap::new(),
            suites: Vec::new(),
            top_tests: Vec::new(),
            nodes: Vec::new(),
            node_index: HashMap::new(),
            tests: Vec::new(),
            test_index: HashMap::new(),
            first_start: None,
            last_end: None,
            attachments: Vec::new(),
            attachment_index: HashMap::new(),
        })
    }

    /// Adds an environment, or finds the equal one already added; returns its index.
    pub fn add_environment(&mut self, env: Environment) -> Result<usize> {
        if env.name.is_empty() || env.name.chars().count() > crate::limits::ENVIRONMENT_NAME_MAX_LEN {
            return Err(Error::invalid_input("an environment name must be 1 to 512 characters"));
        }
        let key = serde_json::to_string(&env).unwrap_or_default();
        if let Some(&i) = self.env_index.get(&key) {
            return Ok(i);
        }
        self.environments.push(env);
        self.env_index.insert(key, self.environments.len() - 1);
        Ok(self.environments.len() - 1)
    }

    /// Adds a test, or finds the one with the same title path and file; returns its handle.
    pub fn add_test(&mut self, input: TestInput) -> Result<usize> {
        let TestInput { mut title_path, file, line, column, tags } = input;
        let Some(title) = title_path.pop() else {
            return Err(Error::invalid_input("titlePath must hold at least the test's title"));
        };
        if let Some(file) = &file {
            super::validate::check_path(file).map_err(|m| Error::invalid_input(format!("file: {m}")))?;
        }
        let mut node = TOP;
        if let Some(file) = &file {
            node = self.child(node, SuiteType::File, file);
        }
        for suite in &title_path {
            node = self.child(node, SuiteType::Suite, suite);
        }
        if let Some(&h) = self.test_index.get(&(node, title.clone())) {
            return Ok(h);
        }
        let location = match (file, line) {
            (Some(file), Some(line)) if line >= 1 => Some(Location { file, line, column: column.unwrap_or(1).max(1) }),
            _ => None,
        };
        let test = Test { title: title.clone(), location, tags: tags.filter(|t| !t.is_empty()), attempts: Vec::new() };
        let tests = self.tests_of(node);
        tests.push(test);
        let index = tests.len() as u32 - 1;
        self.tests.push(TestSlot { node, index });
        self.test_index.insert((node, title), self.tests.len() - 1);
        Ok(self.tests.len() - 1)
    }

    /// The node of the suite `kind`/`title` under `parent`, created (last) when missing.
    fn child(&mut self, parent: u32, kind: SuiteType, title: &str) -> u32 {
        let key = (parent, kind, title.to_string());
        if let Some(&node) = self.node_index.get(&key) {
            return node;
        }
        let suite = Suite { kind, title: title.to_string(), location: None, suites: None, tests: None };
        let parent_path = self.nodes.get(parent as usize).map_or(&[][..], Vec::as_slice);
        let siblings = match suite_at(&mut self.suites, parent_path) {
            None => &mut self.suites,
            Some(p) => p.suites.get_or_insert_with(Vec::new),
        };
        siblings.push(suite);
        let position = siblings.len() as u32 - 1;
        let mut path = if parent == TOP { Vec::new() } else { self.nodes[parent as usize].clone() };
        path.push(position);
        self.nodes.push(path);
        let node = self.nodes.len() as u32 - 1;
        self.node_index.insert(key, node);
        node
    }

    /// The tests of `node`.
    fn tests_of(&mut self, node: u32) -> &mut Vec<Test> {
        let path = self.nodes.get(node as usize).map_or(&[][..], Vec::as_slice);
        match suite_at(&mut self.suites, path) {
            Some(suite) => suite.tests.get_or_insert_with(Vec::new),
            // `TOP` (nodes are only created by `child`, so every other node has its suite).
            None => &mut self.top_tests,
        }
    }

    /// Records one run of a test.
    pub fn add_attempt(&mut self, handle: usize, attempt: RunAttempt) -> Result<()> {
        let envs = self.environments.len().max(1);
        if attempt.env() >= envs {
            return Err(Error::invalid_input(format!(
                "environmentIdx {} is out of range ({} environments): add the environment first",
                attempt.env(),
                self.environments.len()
            )));
        }
        let slot = *self
            .tests
            .get(handle)
            .ok_or_else(|| Error::invalid_input(format!("unknown test handle {handle}: use the value addTest returned")))?;
        if attempt.start_timestamp > 0 {
            self.first_start = Some(self.first_start.map_or(attempt.start_timestamp, |s| s.min(attempt.start_timestamp)));
        }
        let end = attempt.start_timestamp + attempt.duration.unwrap_or(0);
        self.last_end = Some(self.last_end.map_or(end, |e| e.max(end)));
        let test = self.tests_of(slot.node).get_mut(slot.index as usize);
        // Every handle points at the test `add_test` pushed.
        if let Some(test) = test {
            // Most tests run once: a default `Vec` would reserve room for 4 attempts (~0.5 KB).
            test.attempts.reserve_exact(1);
            test.attempts.push(attempt);
        }
        Ok(())
    }

    /// Registers an attachment's content; equal content gives one id (lowercase hex SHA-1).
    pub fn add_attachment(&mut self, input: AttachmentInput) -> Result<Attachment> {
        if input.name.is_empty() || input.content_type.is_empty() {
            return Err(Error::invalid_input("an attachment needs a name and a contentType"));
        }
        let id = sha1_smol::Sha1::from(&input.data).digest().to_string();
        let attachment = Attachment { name: input.name, content_type: input.content_type, id: id.clone() };
        if !self.attachment_index.contains_key(&id) {
            self.attachment_index.insert(id, self.attachments.len());
            self.attachments.push((attachment.clone(), input.data));
        }
        Ok(attachment)
    }

    /// The attachments' contents, one per id, in the order they were first added.
    pub fn attachments(&self) -> impl Iterator<Item = (&Attachment, &[u8])> {
        self.attachments.iter().map(|(a, d)| (a, d.as_slice()))
    }

    /// The report: tests grouped into a `file` suite per file and a `suite` per title level.
    pub fn build(&self) -> Report {
        self.report(self.suites.clone(), self.top_tests.clone())
    }

    /// Runs `f` on the report without copying the tests: the tree moves into the report and back.
    pub fn with_report<R>(&mut self, f: impl FnOnce(&Report) -> R) -> R {
        let (suites, tests) = (std::mem::take(&mut self.suites), std::mem::take(&mut self.top_tests));
        let report = self.report(suites, tests);
        let result = f(&report);
        self.suites = report.suites.unwrap_or_default();
        self.top_tests = report.tests.unwrap_or_default();
        result
    }

    fn report(&self, suites: Vec<Suite>, tests: Vec<Test>) -> Report {
        let start = self.init.start_timestamp.unwrap_or(self.first_start.unwrap_or(0));
        let end = self.last_end.unwrap_or(start);
        let i = &self.init;
        Report {
            category: i.category.clone(),
            commit_id: i.commit_id.clone(),
            environments: self.environments.clone(),
            start_timestamp: start,
            duration: i.duration.unwrap_or(end.saturating_sub(start)),
            title: i.title.clone(),
            url: i.url.clone(),
            config_path: i.config_path.clone(),
            related_commit_ids: i.related_commit_ids.clone(),
            generated_by: Some(i.generated_by.clone().unwrap_or(NameVersion {
                name: "shardwise".into(),
                version: env!("CARGO_PKG_VERSION").into(),
            })),
            test_runner: i.test_runner.clone(),
            runtime: i.runtime.clone(),
            suites: (!suites.is_empty()).then_some(suites),
            tests: (!tests.is_empty()).then_some(tests),
            cpu_count: i.cpu_count,
            ram_bytes: i.ram_bytes,
            ..Report::default()
        }
    }

    /// The report encoded as the service stores it (JSON, Brotli quality 9), streamed from the
    /// tree into the encoder.
    pub fn encode(&mut self) -> Vec<u8> {
        self.with_report(super::encode_report)
    }
}

/// The suite at `path` (child positions from the top level); `None` for an empty path.
fn suite_at<'a>(suites: &'a mut [Suite], path: &[u32]) -> Option<&'a mut Suite> {
    let (first, rest) = path.split_first()?;
    let mut suite = suites.get_mut(*first as usize)?;
    for &i in rest {
        suite = suite.suites.as_mut()?.get_mut(i as usize)?;
    }
    Some(suite)
}
