//! Incremental building of a report: environments and tests are looked up in hash maps, and the
//! suite tree is assembled once in `build`, so adding 100,000 tests is linear.

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

struct TestEntry {
    suites: Vec<String>,
    file: Option<String>,
    test: Test,
}

/// Builds a valid report step by step.
pub struct ReportBuilder {
    init: ReportInit,
    environments: Vec<Environment>,
    env_index: HashMap<String, usize>,
    tests: Vec<TestEntry>,
    test_index: HashMap<(Option<String>, Vec<String>), usize>,
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
            tests: Vec::new(),
            test_index: HashMap::new(),
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
        let Some((title, suites)) = input.title_path.split_last() else {
            return Err(Error::invalid_input("titlePath must hold at least the test's title"));
        };
        if let Some(file) = &input.file {
            super::validate::check_path(file).map_err(|m| Error::invalid_input(format!("file: {m}")))?;
        }
        let key = (input.file.clone(), input.title_path.clone());
        if let Some(&h) = self.test_index.get(&key) {
            return Ok(h);
        }
        let location = match (&input.file, input.line) {
            (Some(file), Some(line)) if line >= 1 => {
                Some(Location { file: file.clone(), line, column: input.column.unwrap_or(1).max(1) })
            }
            _ => None,
        };
        self.tests.push(TestEntry {
            suites: suites.to_vec(),
            file: input.file,
            test: Test { title: title.clone(), location, tags: input.tags.filter(|t| !t.is_empty()), attempts: Vec::new() },
        });
        self.test_index.insert(key, self.tests.len() - 1);
        Ok(self.tests.len() - 1)
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
        let entry = self
            .tests
            .get_mut(handle)
            .ok_or_else(|| Error::invalid_input(format!("unknown test handle {handle}: use the value addTest returned")))?;
        entry.test.attempts.push(attempt);
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
        #[derive(Default)]
        struct Node {
            children: Vec<(SuiteType, String, Node)>,
            index: HashMap<(SuiteType, String), usize>,
            tests: Vec<Test>,
        }
        impl Node {
            fn child(&mut self, kind: SuiteType, title: &str) -> &mut Node {
                let key = (kind, title.to_string());
                let i = match self.index.get(&key) {
                    Some(&i) => i,
                    None => {
                        self.children.push((kind, title.to_string(), Node::default()));
                        self.index.insert(key, self.children.len() - 1);
                        self.children.len() - 1
                    }
                };
                &mut self.children[i].2
            }
            fn into_suites(self) -> Vec<Suite> {
                self.children
                    .into_iter()
                    .map(|(kind, title, node)| {
                        let Node { children, index, tests } = node;
                        let sub = Node { children, index, tests: Vec::new() }.into_suites();
                        Suite {
                            kind,
                            title,
                            location: None,
                            suites: (!sub.is_empty()).then_some(sub),
                            tests: (!tests.is_empty()).then_some(tests),
                        }
                    })
                    .collect()
            }
        }
        let mut root = Node::default();
        for e in &self.tests {
            let mut node = &mut root;
            if let Some(file) = &e.file {
                node = node.child(SuiteType::File, file);
            }
            for title in &e.suites {
                node = node.child(SuiteType::Suite, title);
            }
            node.tests.push(e.test.clone());
        }
        let top_tests = std::mem::take(&mut root.tests);
        let suites = root.into_suites();

        let attempts = self.tests.iter().flat_map(|e| &e.test.attempts);
        let start = self.init.start_timestamp.unwrap_or_else(|| {
            attempts.clone().map(|a| a.start_timestamp).filter(|&t| t > 0).min().unwrap_or(0)
        });
        let end = attempts.map(|a| a.start_timestamp + a.duration.unwrap_or(0)).max().unwrap_or(start);
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
            tests: (!top_tests.is_empty()).then_some(top_tests),
            cpu_count: i.cpu_count,
            ram_bytes: i.ram_bytes,
            ..Report::default()
        }
    }

    /// `build()` encoded as the service stores it (JSON, Brotli quality 9).
    pub fn encode(&self) -> Vec<u8> {
        super::encode_report(&self.build())
    }
}
