//! The report document (docs/report-format.md §3; the published schema is
//! `@flakiness/flakiness-report`).
//! Field names are camelCase on the wire; optional fields are omitted when absent.
//! Times are Unix epoch milliseconds, durations milliseconds, lines and columns 1-based.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A whole test run.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The runner family, e.g. `playwright`, `jest`, `vitest` (1..100 characters).
    pub category: String,
    /// The commit under test: 40 lowercase hex characters.
    pub commit_id: String,
    pub environments: Vec<Environment>,
    pub start_timestamp: u64,
    pub duration: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The CI run's URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub related_commit_ids: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flakiness_project: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated_by: Option<NameVersion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_runner: Option<NameVersion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime: Option<NameVersion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suites: Option<Vec<Suite>>,
    /// Tests outside any suite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tests: Option<Vec<Test>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unattributed_errors: Option<Vec<ReportError>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<Source>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_count: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ram_bytes: Option<u64>,
    /// Telemetry: `[[absoluteMs, percent], [deltaMs, percent], ...]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_avg: Option<Vec<(f64, f64)>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_max: Option<Vec<(f64, f64)>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ram: Option<Vec<(f64, f64)>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_utilization: Option<SystemUtilization>,
}

/// The machine's load during the run, sampled.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SystemUtilization {
    pub total_memory_bytes: u64,
    pub start_timestamp: u64,
    pub samples: Vec<UtilizationSample>,
}

/// One sample: milliseconds since the previous one (or the start), and percentages 0..100.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UtilizationSample {
    pub dts: u64,
    pub cpu_utilization: f64,
    pub memory_utilization: f64,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct NameVersion {
    pub name: String,
    pub version: String,
}

/// Where tests ran. Two environments are the same when their whole content is equal.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Environment {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_data: Option<SystemData>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_supplied_data: Option<BTreeMap<String, serde_json::Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<BTreeMap<String, serde_json::Value>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SystemData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os_arch: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SuiteType {
    #[serde(rename = "file")]
    File,
    #[serde(rename = "suite")]
    Suite,
    #[serde(rename = "anonymous suite")]
    AnonymousSuite,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Suite {
    #[serde(rename = "type")]
    pub kind: SuiteType,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suites: Option<Vec<Suite>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tests: Option<Vec<Test>>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Test {
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// One per run of the test (retries, environments); may be empty.
    #[serde(default)]
    pub attempts: Vec<RunAttempt>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TestStatus {
    Passed,
    Failed,
    TimedOut,
    Skipped,
    Interrupted,
}

impl TestStatus {
    /// Every status (the package glue sends a status as its place here).
    pub const ALL: [TestStatus; 5] =
        [TestStatus::Passed, TestStatus::Failed, TestStatus::TimedOut, TestStatus::Skipped, TestStatus::Interrupted];
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunAttempt {
    /// Index into `environments`; absent means 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment_idx: Option<u32>,
    /// Absent means `passed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_status: Option<TestStatus>,
    /// Absent means `passed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<TestStatus>,
    /// Always emitted: schema 0.34 requires it.
    #[serde(default)]
    pub start_timestamp: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Vec<Annotation>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errors: Option<Vec<ReportError>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallel_index: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<TestStep>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdio: Option<Vec<TimedStdioEntry>>,
    /// Output without timing, per stream (the schema's older form; `stdio` supersedes it):
    /// entries without `stream` and `dts`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdout: Option<Vec<TimedStdioEntry>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<Vec<TimedStdioEntry>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attachments: Option<Vec<Attachment>>,
}

impl RunAttempt {
    pub fn env(&self) -> usize {
        self.environment_idx.unwrap_or(0) as usize
    }

    /// True when the attempt has more than its plain fields (index, statuses, times): notes,
    /// errors, steps, output or attachments.
    pub fn has_details(&self) -> bool {
        let RunAttempt {
            environment_idx: _,
            expected_status: _,
            status: _,
            start_timestamp: _,
            duration: _,
            timeout: _,
            parallel_index: _,
            annotations,
            errors,
            steps,
            stdio,
            stdout,
            stderr,
            attachments,
        } = self;
        annotations.is_some()
            || errors.is_some()
            || steps.is_some()
            || stdio.is_some()
            || stdout.is_some()
            || stderr.is_some()
            || attachments.is_some()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Annotation {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestStep {
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snippet: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ReportError>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attachments: Option<Vec<Attachment>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<TestStep>>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ReportError {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snippet: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attachment {
    pub name: String,
    pub content_type: String,
    /// Lowercase hex SHA-1 of the content; the id used with `/api/upload/attachments`.
    pub id: String,
}

/// One chunk of output: exactly one of `text` or `buffer` (base64). In `stdio` it may say its
/// `stream` and `dts`; in `stdout` and `stderr` (the schema's `STDIOEntry`) it does not.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TimedStdioEntry {
    /// 1 stdout (the default), 2 stderr.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<u8>,
    /// Milliseconds since the previous entry, or since the attempt start for the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dts: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Location {
    /// POSIX path relative to the repository root.
    pub file: String,
    pub line: u32,
    pub column: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    pub file_path: String,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_offset: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
}

impl Report {
    /// Every test with the titles of the suites above it and its file (the nearest `file`
    /// suite's title, else its own location's file). The order is the document's.
    pub fn tests_with_paths(&self) -> Vec<TestRef<'_>> {
        fn walk<'a>(s: &'a Suite, path: &mut Vec<&'a str>, file: Option<&'a str>, out: &mut Vec<TestRef<'a>>) {
            let file = if s.kind == SuiteType::File { Some(s.title.as_str()) } else { file };
            let pushed = s.kind != SuiteType::File;
            if pushed {
                path.push(&s.title);
            }
            for t in s.tests.iter().flatten() {
                out.push(TestRef { suites: path.clone(), file: t.location.as_ref().map(|l| l.file.as_str()).or(file), test: t });
            }
            for c in s.suites.iter().flatten() {
                walk(c, path, file, out);
            }
            if pushed {
                path.pop();
            }
        }
        let mut out = Vec::new();
        for t in self.tests.iter().flatten() {
            out.push(TestRef { suites: Vec::new(), file: t.location.as_ref().map(|l| l.file.as_str()), test: t });
        }
        let mut path = Vec::new();
        for s in self.suites.iter().flatten() {
            walk(s, &mut path, None, &mut out);
        }
        out
    }
}

/// A test seen from the root: see [`Report::tests_with_paths`].
#[derive(Debug, Clone)]
pub struct TestRef<'a> {
    /// Titles of the enclosing non-file suites, outermost first.
    pub suites: Vec<&'a str>,
    pub file: Option<&'a str>,
    pub test: &'a Test,
}
