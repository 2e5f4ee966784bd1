//! The stack file Portainer runs, and the one value `ops deploy` changes in
//! it. The specification's deployed stack names the image in the file
//! (`image: <registry>/<repository>:<tag>` on the Tally service);
//! `deploy/stack.yaml` reads it from the stack variable `TALLY_IMAGE`
//! instead. Either way exactly one service is Tally's.
//!
//! The file is the operator's: its comments, order, quoting and the other
//! services stay as they were, byte for byte. So it is not re-serialised:
//! the parser's span of the image scalar is replaced in the original text,
//! and the result is parsed again and must differ from the original in
//! that one value and nothing else.

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

/// The stack variable `deploy/stack.yaml` reads the image from.
pub const IMAGE_VARIABLE: &str = "TALLY_IMAGE";

/// Where the Tally service's image comes from.
#[derive(Debug, PartialEq, Eq)]
pub enum ImageSource {
    /// Named in the file.
    Written(Written),
    /// Read from a stack variable (`image: ${TALLY_IMAGE}`).
    Variable { service: String, name: String },
}

/// An image named in the stack file, and where.
#[derive(Debug, PartialEq, Eq)]
pub struct Written {
    pub service: String,
    pub image: String,
    /// The scalar's place among the file's parse events.
    event: usize,
    /// Its bytes in the file, quotes included.
    start: usize,
    end: usize,
    style: ScalarStyle,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum StackFileError {
    #[error("the stack file is not YAML that can be read: {0}")]
    NotYaml(String),
    #[error("the stack file has no `services:` mapping")]
    NoServices,
    #[error("no service in the stack file runs {wanted} or reads its image from {IMAGE_VARIABLE} ({seen}); deploy changes only Tally's service")]
    NoService { wanted: String, seen: String },
    #[error("more than one service in the stack file runs {wanted} ({0}); deploy cannot tell which is Tally's", .services.join(", "))]
    SeveralServices {
        wanted: String,
        services: Vec<String>,
    },
    #[error("the image of service {service:?} cannot be changed in place ({why}); write it on one line as `image: {wanted}:<tag>`")]
    NotInPlace {
        service: String,
        wanted: String,
        why: &'static str,
    },
    #[error(
        "changing the image of service {0:?} would change more of the stack file than that value"
    )]
    MoreThanTheImage(String),
}

type Events<'a> = Vec<(Event<'a>, Span)>;

fn parse(text: &str) -> Result<Events<'_>, StackFileError> {
    Parser::new_from_str(text)
        .map(|event| event.map_err(|error| StackFileError::NotYaml(error.to_string())))
        .collect()
}

/// The index just past the node that starts at `at`.
fn skip(events: &Events<'_>, mut at: usize) -> usize {
    let mut depth = 0_usize;
    while let Some((event, _)) = events.get(at) {
        match event {
            Event::MappingStart(..) | Event::SequenceStart(..) => depth += 1,
            Event::MappingEnd | Event::SequenceEnd => depth = depth.saturating_sub(1),
            _ => {}
        }
        at += 1;
        if depth == 0 {
            break;
        }
    }
    at
}

/// The entries of the mapping that starts at `at` whose keys are plain
/// text: each key and where its value starts.
fn entries<'e>(events: &'e Events<'_>, at: usize) -> Vec<(&'e str, usize)> {
    let mut found = Vec::new();
    if !matches!(events.get(at), Some((Event::MappingStart(..), _))) {
        return found;
    }
    let mut key = at + 1;
    while let Some((event, _)) = events.get(key) {
        if matches!(event, Event::MappingEnd) {
            break;
        }
        let value = skip(events, key);
        if let Event::Scalar(name, ..) = event {
            found.push((name.as_ref(), value));
        }
        key = skip(events, value);
    }
    found
}

/// The variable a whole value reads (`${NAME}`, `${NAME:?message}`,
/// `${NAME:-default}`, `$NAME`), if that is all it is.
fn variable(value: &str) -> Option<&str> {
    let name_end = |text: &str| {
        text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(text.len())
    };
    if let Some(inner) = value.strip_prefix("${").and_then(|v| v.strip_suffix('}')) {
        let end = name_end(inner);
        let (name, rest) = inner.split_at(end);
        let modifier =
            rest.is_empty() || [":?", "?", ":-", "-"].iter().any(|m| rest.starts_with(m));
        return (!name.is_empty() && modifier && !rest.contains(['{', '}', '$'])).then_some(name);
    }
    let name = value.strip_prefix('$')?;
    (!name.is_empty() && name_end(name) == name.len()).then_some(name)
}

/// An image reference without its tag and digest: `host/repository`.
pub fn image_name(reference: &str) -> &str {
    let named = reference.split('@').next().unwrap_or(reference);
    match named.rsplit_once(':') {
        Some((name, tag)) if !tag.contains('/') => name,
        _ => named,
    }
}

/// Byte offset of the `index`th character.
fn byte_at(text: &str, index: usize) -> Option<usize> {
    text.char_indices()
        .map(|(at, _)| at)
        .chain(std::iter::once(text.len()))
        .nth(index)
}

/// Finds the one service whose image is `wanted` (`host/repository`, any
/// tag or digest) or the `TALLY_IMAGE` variable.
pub fn locate(text: &str, wanted: &str) -> Result<ImageSource, StackFileError> {
    let events = parse(text)?;
    // Stream start, document start, the top-level mapping.
    let root = events
        .iter()
        .position(|(event, _)| matches!(event, Event::MappingStart(..)))
        .ok_or(StackFileError::NoServices)?;
    let services = entries(&events, root)
        .into_iter()
        .find(|(key, _)| *key == "services")
        .map(|(_, at)| at)
        .filter(|at| matches!(events.get(*at), Some((Event::MappingStart(..), _))))
        .ok_or(StackFileError::NoServices)?;
    let mut candidates = Vec::new();
    let mut seen = Vec::new();
    for (service, at) in entries(&events, services) {
        let Some((_, image_at)) = entries(&events, at)
            .into_iter()
            .find(|(key, _)| *key == "image")
        else {
            seen.push(format!("{service}: no image"));
            continue;
        };
        let Some((Event::Scalar(image, style, anchor, _), span)) = events.get(image_at) else {
            seen.push(format!("{service}: an image that is not plain text"));
            continue;
        };
        seen.push(format!("{service} → {image}"));
        if variable(image) == Some(IMAGE_VARIABLE) {
            candidates.push(ImageSource::Variable {
                service: service.to_owned(),
                name: IMAGE_VARIABLE.to_owned(),
            });
        } else if !image.contains('$') && image_name(image) == wanted {
            let in_place = |why| StackFileError::NotInPlace {
                service: service.to_owned(),
                wanted: wanted.to_owned(),
                why,
            };
            if *anchor != 0 {
                // Another value may repeat it (`*name`): the edit would
                // move that too, unseen by a comparison of parse events.
                return Err(in_place("it is an anchor (&) other values may repeat"));
            }
            let (Some(start), Some(end)) = (
                byte_at(text, span.start.index()),
                byte_at(text, span.end.index()),
            ) else {
                return Err(in_place("the parser placed it outside the file"));
            };
            let written = text.get(start..end).unwrap_or_default();
            let expected = match style {
                ScalarStyle::Plain => image.to_string(),
                ScalarStyle::SingleQuoted => format!("'{}'", image.replace('\'', "''")),
                ScalarStyle::DoubleQuoted if !image.contains(['\\', '"']) => format!("\"{image}\""),
                _ => return Err(in_place("it is written over several lines or with escapes")),
            };
            if written != expected {
                return Err(in_place("it is not written as one plain or quoted value"));
            }
            candidates.push(ImageSource::Written(Written {
                service: service.to_owned(),
                image: image.to_string(),
                event: image_at,
                start,
                end,
                style: *style,
            }));
        }
    }
    match candidates.len() {
        0 => Err(StackFileError::NoService {
            wanted: wanted.to_owned(),
            seen: if seen.is_empty() {
                "it has no services".into()
            } else {
                seen.join("; ")
            },
        }),
        1 => Ok(candidates.remove(0)),
        _ => Err(StackFileError::SeveralServices {
            wanted: wanted.to_owned(),
            services: candidates
                .iter()
                .map(|candidate| match candidate {
                    ImageSource::Written(written) => written.service.clone(),
                    ImageSource::Variable { service, .. } => service.clone(),
                })
                .collect(),
        }),
    }
}

/// `text` with the image at `written` replaced by `image` (a reference of
/// `[A-Za-z0-9._:/@-]` only, which every scalar style takes as it is), in
/// the same quoting; refused unless that is the only change a parser sees.
pub fn with_image(text: &str, written: &Written, image: &str) -> Result<String, StackFileError> {
    let more = || StackFileError::MoreThanTheImage(written.service.clone());
    if image.is_empty()
        || !image
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._:/@-".contains(&b))
    {
        return Err(more());
    }
    let value = match written.style {
        ScalarStyle::SingleQuoted => format!("'{image}'"),
        ScalarStyle::DoubleQuoted => format!("\"{image}\""),
        _ => image.to_owned(),
    };
    let (Some(before), Some(after)) = (text.get(..written.start), text.get(written.end..)) else {
        return Err(more());
    };
    let edited = format!("{before}{value}{after}");
    let (was, now) = (parse(text)?, parse(&edited)?);
    let only_the_image = was.len() == now.len()
        && was
            .iter()
            .zip(&now)
            .enumerate()
            .all(|(at, ((old, _), (new, _)))| {
                if at != written.event {
                    return old == new;
                }
                match (old, new) {
                    (
                        Event::Scalar(_, old_style, old_anchor, old_tag),
                        Event::Scalar(new_value, new_style, new_anchor, new_tag),
                    ) => {
                        new_value == image
                            && (old_style, old_anchor, old_tag) == (new_style, new_anchor, new_tag)
                    }
                    _ => false,
                }
            });
    if only_the_image {
        Ok(edited)
    } else {
        Err(more())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WANTED: &str = "registry.example/acme/tally";
    const PINNED: &str = "registry.example/acme/tally:v1.3.0@sha256:0123abcd";

    fn written(text: &str) -> Written {
        match locate(text, WANTED).unwrap() {
            ImageSource::Written(written) => written,
            other => panic!("{other:?}"),
        }
    }

    /// The file with only the image changed, checked against a plain text
    /// replacement of the old value.
    fn moved(text: &str, old: &str, new: &str) {
        let found = written(text);
        let edited = with_image(text, &found, PINNED).unwrap();
        assert_eq!(edited, text.replacen(old, new, 1));
    }

    #[test]
    fn only_the_tally_services_image_value_changes() {
        let text = "# production\nname: tally\nservices:\n  proxy:\n    image: caddy:2.8 # not ours\n  tally:\n    # pinned by ops deploy\n    image: registry.example/acme/tally:v1.2.3   # keep this comment\n    environment:\n      A: \"1\"\nvolumes: {data: {}}\n";
        let found = written(text);
        assert_eq!(found.service, "tally");
        assert_eq!(found.image, "registry.example/acme/tally:v1.2.3");
        moved(text, "registry.example/acme/tally:v1.2.3", PINNED);
    }

    #[test]
    fn quoting_flow_style_digests_and_wide_characters_are_kept() {
        moved(
            "services:\n  tally:\n    image: 'registry.example/acme/tally:v1.2.3'\n",
            "'registry.example/acme/tally:v1.2.3'",
            &format!("'{PINNED}'"),
        );
        moved(
            "# café ✓\nservices:\n  app: {image: \"registry.example/acme/tally@sha256:ff\", restart: always}\n",
            "\"registry.example/acme/tally@sha256:ff\"",
            &format!("\"{PINNED}\""),
        );
        moved(
            "services:\r\n  tally:\r\n    image: registry.example/acme/tally\r\n",
            "registry.example/acme/tally",
            PINNED,
        );
    }

    #[test]
    fn the_variable_style_is_recognised() {
        for image in ["${TALLY_IMAGE}", "${TALLY_IMAGE:?set it}", "$TALLY_IMAGE"] {
            let text =
                format!("services:\n  tally:\n    image: {image}\n  db:\n    image: postgres:16\n");
            assert_eq!(
                locate(&text, WANTED).unwrap(),
                ImageSource::Variable {
                    service: "tally".into(),
                    name: IMAGE_VARIABLE.into()
                },
                "{image}"
            );
        }
        assert_eq!(variable("${OTHER}"), Some("OTHER"));
        assert_eq!(variable("registry/${TAG}"), None);
        assert_eq!(variable("${A}${B}"), None);
    }

    #[test]
    fn no_service_two_services_and_unreadable_files_are_refused() {
        let none = locate(
            "services:\n  web:\n    image: nginx:1\n  job: {command: x}\n",
            WANTED,
        );
        let Err(StackFileError::NoService { seen, .. }) = none else {
            panic!("{none:?}")
        };
        assert_eq!(seen, "web → nginx:1; job: no image");
        let other_registry = locate(
            "services:\n  tally:\n    image: elsewhere.example/acme/tally:v1\n",
            WANTED,
        );
        assert!(matches!(
            other_registry,
            Err(StackFileError::NoService { .. })
        ));
        let two = locate(
            "services:\n  a:\n    image: registry.example/acme/tally:v1\n  b:\n    image: ${TALLY_IMAGE}\n",
            WANTED,
        );
        assert_eq!(
            two,
            Err(StackFileError::SeveralServices {
                wanted: WANTED.into(),
                services: vec!["a".into(), "b".into()]
            })
        );
        assert!(matches!(
            locate("services: [", WANTED),
            Err(StackFileError::NotYaml(_))
        ));
        assert_eq!(locate("name: x\n", WANTED), Err(StackFileError::NoServices));
        assert!(matches!(
            locate(
                "services:\n  tally:\n    image: >\n      registry.example/acme/tally:v1\n",
                WANTED
            ),
            Err(StackFileError::NotInPlace { .. })
        ));
    }

    #[test]
    fn a_change_that_would_reach_further_than_the_value_is_refused() {
        // An anchored image that another service repeats by alias: editing
        // the anchor would move both.
        let text = "services:\n  tally:\n    image: &img registry.example/acme/tally:v1\n  worker:\n    image: *img\n";
        assert!(matches!(
            locate(text, WANTED),
            Err(StackFileError::NotInPlace { .. })
        ));
        // A value that is not a plain image reference is never written.
        let plain = "services:\n  tally:\n    image: registry.example/acme/tally:v1\n";
        let found = written(plain);
        assert!(with_image(plain, &found, "x # y").is_err());
        assert!(with_image(plain, &found, "x\ny: z").is_err());
    }

    #[test]
    fn image_names_drop_the_tag_and_the_digest() {
        assert_eq!(
            image_name("reg.example:5000/acme/tally:v1@sha256:ab"),
            "reg.example:5000/acme/tally"
        );
        assert_eq!(
            image_name("reg.example:5000/acme/tally"),
            "reg.example:5000/acme/tally"
        );
        assert_eq!(image_name("tally:v1"), "tally");
    }
}
