//! Property tests of the operation state machine on the real engine and a
//! real SQLite database: any interleaving of complete / fail / cancel /
//! honoured cancel / delete / wait keeps the invariants (not done ⇒ no
//! result; done ⇒ exactly one; a done operation never changes; a deleted
//! one is gone), and a cancel racing a job's completion ends in exactly one
//! terminal state.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::json;

use super::*;

const OPS: usize = 3;

#[derive(Clone, Debug)]
enum Action {
    Complete(usize),
    Fail(usize),
    Cancel(usize),
    /// The job notices the cancellation request and stops.
    HonourCancel(usize),
    Delete(usize),
    Wait(usize),
}

fn action() -> impl Strategy<Value = Action> {
    let op = 0..OPS;
    prop_oneof![
        op.clone().prop_map(Action::Complete),
        op.clone().prop_map(Action::Fail),
        op.clone().prop_map(Action::Cancel),
        op.clone().prop_map(Action::HonourCancel),
        op.clone().prop_map(Action::Delete),
        op.prop_map(Action::Wait),
    ]
}

/// What the model expects of one operation.
#[derive(Clone, Debug, Default, PartialEq)]
struct Model {
    outcome: Option<Outcome>,
    cancel_requested: bool,
    deleted: bool,
}

struct Fixture {
    _dir: tempfile::TempDir,
    engine: Arc<Engine>,
    runtime: tokio::runtime::Runtime,
}

fn fixture() -> Fixture {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (dir, pool) = runtime.block_on(crate::backend::db::migrated_for_test());
    let engine = runtime.block_on(async {
        sqlx::query("INSERT INTO users (id, email) VALUES (1, 'a@example.com')")
            .execute(&pool)
            .await
            .unwrap();
        Engine::new(pool, Duration::from_secs(3600)).await.unwrap()
    });
    Fixture {
        _dir: dir,
        engine,
        runtime,
    }
}

const OWNER: Viewer = Viewer {
    user_id: 1,
    admin: false,
};

fn check(record: &Record, model: &Model) {
    let typed = record.to_operation();
    // Its metadata and response are tally.v1 messages as the .proto says.
    super::proto_schema::check_any(&typed.metadata).unwrap();
    if let Some(response) = &typed.response {
        super::proto_schema::check_any(response).unwrap();
    }
    let operation = serde_json::to_value(typed).unwrap();
    let mut keys: Vec<&str> = operation
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    match &model.outcome {
        None => {
            assert!(!record.done, "{record:?}");
            assert_eq!(keys, ["done", "metadata", "name"]);
        }
        Some(outcome) => {
            assert!(record.done);
            assert_eq!(keys.len(), 4, "{keys:?}");
            let has_error = operation.get("error").is_some();
            let has_response = operation.get("response").is_some();
            assert!(has_error != has_response, "{operation}");
            match outcome {
                Outcome::Error(status) => {
                    assert_eq!(operation["error"]["code"], status.code);
                }
                Outcome::Response(fields) => {
                    assert_eq!(operation["response"]["slept"], fields["slept"]);
                }
            }
        }
    }
    assert_eq!(record.cancel_requested, model.cancel_requested);
}

async fn run_actions(engine: &Arc<Engine>, actions: &[Action]) {
    let mut ids = Vec::new();
    for _ in 0..OPS {
        ids.push(
            engine
                .start_external(Some(1), OperationKind::Sleep)
                .await
                .unwrap()
                .id,
        );
    }
    let mut models = vec![Model::default(); OPS];
    for action in actions {
        match action.clone() {
            Action::Complete(i) | Action::Fail(i) => {
                let outcome = if matches!(action, Action::Complete(_)) {
                    Outcome::Response(json!({ "slept": format!("{i}s") }))
                } else {
                    Outcome::Error(Status::new(Status::INTERNAL, "failed"))
                };
                let ended = engine
                    .finish(&ids[i], OperationKind::Sleep, outcome.clone())
                    .await
                    .unwrap();
                let model = &mut models[i];
                assert_eq!(
                    ended,
                    model.outcome.is_none(),
                    "only the first outcome counts"
                );
                if model.outcome.is_none() {
                    model.outcome = Some(outcome);
                }
            }
            Action::HonourCancel(i) => {
                let model = &mut models[i];
                if model.cancel_requested && model.outcome.is_none() {
                    let outcome = Outcome::Error(Status::cancelled());
                    assert!(engine
                        .finish(&ids[i], OperationKind::Sleep, outcome.clone())
                        .await
                        .unwrap());
                    model.outcome = Some(outcome);
                }
            }
            Action::Cancel(i) => {
                let result = engine.cancel(OWNER, &ids[i]).await;
                let model = &mut models[i];
                if model.deleted {
                    assert!(matches!(result, Err(OperationsError::NotFound(_))));
                } else {
                    result.unwrap();
                    if model.outcome.is_none() {
                        model.cancel_requested = true;
                    }
                }
            }
            Action::Delete(i) => {
                let result = engine.delete(OWNER, &ids[i]).await;
                let model = &mut models[i];
                if model.deleted {
                    assert!(matches!(result, Err(OperationsError::NotFound(_))));
                } else {
                    result.unwrap();
                    model.deleted = true;
                }
            }
            Action::Wait(i) => {
                let result = engine.wait(OWNER, &ids[i], Duration::from_millis(1)).await;
                if models[i].deleted {
                    assert!(matches!(result, Err(OperationsError::NotFound(_))));
                } else {
                    check(&result.unwrap(), &models[i]);
                }
            }
        }
        // After every step, every operation reads as the model says.
        let listed = engine
            .list(OWNER, &ListRequest::default())
            .await
            .unwrap()
            .operations;
        for (i, id) in ids.iter().enumerate() {
            let got = engine.get(OWNER, id).await;
            if models[i].deleted {
                assert!(
                    matches!(got, Err(OperationsError::NotFound(_))),
                    "{id} was deleted"
                );
                assert!(listed.iter().all(|record| &record.id != id));
            } else {
                let record = got.unwrap();
                check(&record, &models[i]);
                assert!(listed.iter().any(|listed| listed == &record));
            }
        }
    }
    // Whatever is left running is ended, so nothing leaks into other cases.
    for (i, id) in ids.iter().enumerate() {
        if models[i].outcome.is_none() {
            engine
                .finish(
                    id,
                    OperationKind::Sleep,
                    Outcome::Error(Status::cancelled()),
                )
                .await
                .unwrap();
        }
    }
}

#[test]
fn any_interleaving_keeps_the_invariants() {
    let fixture = fixture();
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&proptest::collection::vec(action(), 1..24), |actions| {
            fixture
                .runtime
                .block_on(run_actions(&fixture.engine, &actions));
            Ok(())
        })
        .unwrap();
}

#[test]
fn cancel_racing_completion_ends_in_exactly_one_terminal_state() {
    let fixture = fixture();
    let mut runner = TestRunner::new(Config {
        cases: 48,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&(0_u64..30, 0_u64..30), |(sleep_ms, cancel_after_ms)| {
            fixture.runtime.block_on(async {
                let engine = &fixture.engine;
                let job = crate::backend::diagnostics::Sleep {
                    duration: Duration::from_millis(sleep_ms),
                    fail: false,
                };
                let started = engine.start(Some(1), job).await.unwrap();
                tokio::time::sleep(Duration::from_millis(cancel_after_ms)).await;
                engine.cancel(OWNER, &started.id).await.unwrap();
                let done = engine
                    .wait(OWNER, &started.id, Duration::from_secs(10))
                    .await
                    .unwrap();
                assert!(done.done, "ended within the wait");
                let operation = serde_json::to_value(done.to_operation()).unwrap();
                match (operation.get("error"), operation.get("response")) {
                    (Some(error), None) => assert_eq!(error["code"], 1),
                    (None, Some(response)) => {
                        assert_eq!(
                            response["@type"],
                            "type.googleapis.com/tally.v1.SleepResponse"
                        );
                    }
                    other => panic!("not exactly one result: {other:?}"),
                }
                // Done means done: a late cancel or completion changes nothing.
                engine.cancel(OWNER, &started.id).await.unwrap();
                let late = engine
                    .finish(
                        &started.id,
                        OperationKind::Sleep,
                        Outcome::Error(Status::new(13, "late")),
                    )
                    .await
                    .unwrap();
                assert!(!late);
                assert_eq!(engine.get(OWNER, &started.id).await.unwrap(), done);
            });
            Ok(())
        })
        .unwrap();
}
