//! The ListOperations filter: a subset of AIP-160.
//!
//! ```text
//! filter     = and_expr
//! and_expr   = or_expr { "AND" or_expr }
//! or_expr    = unary { "OR" unary }          (OR binds tighter, as in AIP-160)
//! unary      = ("NOT" | "-") unary | "(" and_expr ")" | comparison
//! comparison = field op value
//! field      = done | kind | metadata_type | create_time | end_time
//! op         = "=" | "!=" | "<" | "<=" | ">" | ">="
//! ```
//! `done` takes `true`/`false` with `=`/`!=`; `kind` and `metadata_type`
//! take a string with `=`/`!=` (`metadata_type` also as the full
//! `type.googleapis.com/…` URL; `metadata.@type` is accepted as its alias);
//! the times take an RFC 3339 timestamp and any operator. Values may be
//! quoted with `"` or bare. The filter becomes a parameterised SQL condition.
//!
//! A filter is at most [`MAX_CHARS`] characters and nests at most
//! [`MAX_DEPTH`] deep (each `(` and each `NOT`/`-` counts one). The parser,
//! `to_sql` and dropping an [`Expr`] all recurse once per nesting level, and
//! a stack overflow is not a panic: it aborts the whole process. `AND` and
//! `OR` chains are kept flat (one node holding every operand), so they add
//! no depth however long they are.

use std::fmt;

/// The longest filter read, in characters.
pub const MAX_CHARS: usize = 2000;
/// The deepest nesting read: parentheses plus `NOT`/`-`.
pub const MAX_DEPTH: usize = 32;

/// A filter that could not be read, in words naming where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("filter: {0}")]
pub struct FilterError(String);

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// Two or more operands, all of which hold.
    And(Vec<Expr>),
    /// Two or more operands, one of which holds.
    Or(Vec<Expr>),
    Not(Box<Expr>),
    Compare(Field, Op, Literal),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Done,
    Kind,
    MetadataType,
    CreateTime,
    EndTime,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A value bound into the SQL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    Bool(bool),
    Text(String),
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Eq => "=",
            Self::Ne => "!=",
            Self::Lt => "<",
            Self::Le => "<=",
            Self::Gt => ">",
            Self::Ge => ">=",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Quoted(String),
    Op(Op),
    Open,
    Close,
    Minus,
}

fn tokens(text: &str) -> Result<Vec<Token>, FilterError> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            '(' => {
                chars.next();
                out.push(Token::Open);
            }
            ')' => {
                chars.next();
                out.push(Token::Close);
            }
            '-' if out.last().is_none_or(|t| !matches!(t, Token::Op(_))) => {
                chars.next();
                out.push(Token::Minus);
            }
            '=' | '!' | '<' | '>' => {
                chars.next();
                let equals = chars.peek() == Some(&'=');
                let op = match (c, equals) {
                    ('=', _) => Op::Eq,
                    ('!', true) => Op::Ne,
                    ('<', true) => Op::Le,
                    ('<', false) => Op::Lt,
                    ('>', true) => Op::Ge,
                    ('>', false) => Op::Gt,
                    _ => return Err(FilterError("expected != after !".into())),
                };
                if equals && c != '=' {
                    chars.next();
                }
                out.push(Token::Op(op));
            }
            '"' => {
                chars.next();
                let mut value = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(escaped) => value.push(escaped),
                            None => return Err(FilterError("unfinished string".into())),
                        },
                        Some(other) => value.push(other),
                        None => return Err(FilterError("unfinished string".into())),
                    }
                }
                out.push(Token::Quoted(value));
            }
            _ => {
                let mut word = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || matches!(c, '(' | ')' | '=' | '!' | '<' | '>' | '"') {
                        break;
                    }
                    word.push(c);
                    chars.next();
                }
                out.push(Token::Word(word));
            }
        }
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    /// How many `(` and `NOT`/`-` enclose the current position.
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.at).cloned();
        self.at += 1;
        token
    }

    fn keyword(&mut self, word: &str) -> bool {
        if matches!(self.peek(), Some(Token::Word(w)) if w == word) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn and_expr(&mut self) -> Result<Expr, FilterError> {
        let mut operands = vec![self.or_expr()?];
        while self.keyword("AND") {
            operands.push(self.or_expr()?);
        }
        Ok(flat(operands, Expr::And))
    }

    fn or_expr(&mut self) -> Result<Expr, FilterError> {
        let mut operands = vec![self.unary()?];
        while self.keyword("OR") {
            operands.push(self.unary()?);
        }
        Ok(flat(operands, Expr::Or))
    }

    /// One level deeper, refused past [`MAX_DEPTH`] before recursing.
    fn nested<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, FilterError>,
    ) -> Result<T, FilterError> {
        if self.depth >= MAX_DEPTH {
            return Err(FilterError(format!(
                "nest at most {MAX_DEPTH} deep (parentheses and NOT count)"
            )));
        }
        self.depth += 1;
        let read = read(self);
        self.depth -= 1;
        read
    }

    fn unary(&mut self) -> Result<Expr, FilterError> {
        let negated = if self.keyword("NOT") {
            true
        } else if self.peek() == Some(&Token::Minus) {
            self.at += 1;
            true
        } else {
            false
        };
        if negated {
            return self.nested(|parser| Ok(Expr::Not(Box::new(parser.unary()?))));
        }
        if self.peek() == Some(&Token::Open) {
            self.at += 1;
            let inner = self.nested(Self::and_expr)?;
            return match self.next() {
                Some(Token::Close) => Ok(inner),
                _ => Err(FilterError("expected )".into())),
            };
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Expr, FilterError> {
        let field = match self.next() {
            Some(Token::Word(word)) => match word.as_str() {
                "done" => Field::Done,
                "kind" => Field::Kind,
                "metadata_type" | "metadataType" | "metadata.@type" => Field::MetadataType,
                "create_time" | "createTime" => Field::CreateTime,
                "end_time" | "endTime" => Field::EndTime,
                other => {
                    return Err(FilterError(format!(
                        "unknown field {other:?}; use done, kind, metadata_type, create_time or end_time"
                    )))
                }
            },
            Some(other) => return Err(FilterError(format!("expected a field name, found {other:?}"))),
            None => return Err(FilterError("expected a field name at the end".into())),
        };
        let op = match self.next() {
            Some(Token::Op(op)) => op,
            _ => return Err(FilterError(format!("expected an operator after {field:?}"))),
        };
        let raw = match self.next() {
            Some(Token::Word(word)) => word,
            Some(Token::Quoted(text)) => text,
            _ => {
                return Err(FilterError(format!(
                    "expected a value after {field:?} {op}"
                )))
            }
        };
        let literal = literal(field, op, &raw)?;
        Ok(Expr::Compare(field, op, literal))
    }
}

/// One operand as itself; several joined by `join`.
fn flat(mut operands: Vec<Expr>, join: fn(Vec<Expr>) -> Expr) -> Expr {
    match (operands.len(), operands.pop()) {
        (1, Some(only)) => only,
        (_, last) => {
            operands.extend(last);
            join(operands)
        }
    }
}

fn literal(field: Field, op: Op, raw: &str) -> Result<Literal, FilterError> {
    let equality = matches!(op, Op::Eq | Op::Ne);
    match field {
        Field::Done => match (raw, equality) {
            ("true", true) => Ok(Literal::Bool(true)),
            ("false", true) => Ok(Literal::Bool(false)),
            _ => Err(FilterError("done takes = or != with true or false".into())),
        },
        Field::Kind if equality => Ok(Literal::Text(raw.to_owned())),
        Field::MetadataType if equality => Ok(Literal::Text(
            raw.strip_prefix("type.googleapis.com/")
                .unwrap_or(raw)
                .to_owned(),
        )),
        Field::Kind | Field::MetadataType => {
            Err(FilterError("kind and metadata_type take = or !=".into()))
        }
        Field::CreateTime | Field::EndTime => {
            let time: jiff::Timestamp = raw.parse().map_err(|_| {
                FilterError(format!(
                    "{raw:?} is not an RFC 3339 time like \"2026-01-31T00:00:00Z\""
                ))
            })?;
            Ok(Literal::Text(
                time.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
            ))
        }
    }
}

/// Reads a filter; an empty one is `None` (everything).
pub fn parse(text: &str) -> Result<Option<Expr>, FilterError> {
    if text.chars().count() > MAX_CHARS {
        return Err(FilterError(format!("use at most {MAX_CHARS} characters")));
    }
    let tokens = tokens(text)?;
    if tokens.is_empty() {
        return Ok(None);
    }
    let mut parser = Parser {
        tokens,
        at: 0,
        depth: 0,
    };
    let expr = parser.and_expr()?;
    match parser.peek() {
        None => Ok(Some(expr)),
        Some(rest) => Err(FilterError(format!("unexpected {rest:?}"))),
    }
}

impl Expr {
    /// Appends this condition to `sql` with `?` placeholders, pushing the
    /// values to bind in order.
    pub fn to_sql(&self, sql: &mut String, binds: &mut Vec<Literal>) {
        match self {
            Self::And(operands) | Self::Or(operands) => {
                let joiner = if matches!(self, Self::And(..)) {
                    " AND "
                } else {
                    " OR "
                };
                sql.push('(');
                for (index, operand) in operands.iter().enumerate() {
                    if index > 0 {
                        sql.push_str(joiner);
                    }
                    operand.to_sql(sql, binds);
                }
                sql.push(')');
            }
            Self::Not(inner) => {
                sql.push_str("NOT (");
                inner.to_sql(sql, binds);
                sql.push(')');
            }
            Self::Compare(field, op, literal) => {
                let column = match field {
                    Field::Done => "done",
                    Field::Kind => "kind",
                    Field::MetadataType => "metadata_type",
                    Field::CreateTime => "created_at",
                    Field::EndTime => "ended_at",
                };
                // A missing end time compares as nothing, so `NOT end_time
                // < x` includes running operations, as a reader expects.
                sql.push_str(&format!("ifnull({column} {op} ?, 0)"));
                binds.push(literal.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sql(text: &str) -> (String, Vec<Literal>) {
        let mut sql = String::new();
        let mut binds = Vec::new();
        parse(text).unwrap().unwrap().to_sql(&mut sql, &mut binds);
        (sql, binds)
    }

    #[test]
    fn comparisons_become_bound_conditions() {
        assert_eq!(
            sql("done = true"),
            ("ifnull(done = ?, 0)".into(), vec![Literal::Bool(true)])
        );
        assert_eq!(
            sql(r#"metadata.@type = "type.googleapis.com/tally.v1.BackupMetadata""#).1,
            vec![Literal::Text("tally.v1.BackupMetadata".into())]
        );
        assert_eq!(
            sql("create_time >= 2026-01-31T10:00:00+01:00").1,
            vec![Literal::Text("2026-01-31T09:00:00.000Z".into())]
        );
    }

    #[test]
    fn or_binds_tighter_than_and_and_not_and_parentheses_work() {
        assert_eq!(
            sql("done = false AND kind = sleep OR kind = backup").0,
            "(ifnull(done = ?, 0) AND (ifnull(kind = ?, 0) OR ifnull(kind = ?, 0)))"
        );
        assert_eq!(
            sql("NOT (done = true) AND -kind = sleep").0,
            "(NOT (ifnull(done = ?, 0)) AND NOT (ifnull(kind = ?, 0)))"
        );
    }

    #[test]
    fn bad_filters_say_what_is_wrong() {
        for (bad, says) in [
            ("done ==", "expected a value"),
            ("done", "operator"),
            ("owner = me", "unknown field"),
            ("done > true", "done takes"),
            ("kind < sleep", "take = or !="),
            ("create_time > yesterday", "RFC 3339"),
            ("(done = true", "expected )"),
            ("done = true)", "unexpected"),
            ("kind = \"sleep", "unfinished"),
        ] {
            let error = parse(bad).unwrap_err().to_string();
            assert!(error.contains(says), "{bad}: {error}");
        }
        assert_eq!(parse("  "), Ok(None));
    }

    #[test]
    fn length_and_nesting_are_capped() {
        let deep = |n: usize| format!("{}done = true{}", "(".repeat(n), ")".repeat(n));
        assert!(parse(&deep(MAX_DEPTH)).is_ok());
        let error = parse(&deep(MAX_DEPTH + 1)).unwrap_err().to_string();
        assert!(error.contains("nest at most 32"), "{error}");
        assert!(parse(&format!("{}done = true", "NOT ".repeat(MAX_DEPTH))).is_ok());
        assert!(parse(&format!("{}done = true", "-".repeat(MAX_DEPTH + 1))).is_err());
        assert!(parse(&format!("{}done = true", "NOT -".repeat(17))).is_err());
        let long = format!("kind = \"{}\"", "x".repeat(MAX_CHARS));
        let error = parse(&long).unwrap_err().to_string();
        assert!(error.contains("at most 2000 characters"), "{error}");
    }

    #[test]
    fn and_and_or_chains_stay_flat() {
        let chain = vec!["kind = a"; 150].join(" AND ");
        let expr = parse(&chain).unwrap().unwrap();
        assert!(matches!(&expr, Expr::And(all) if all.len() == 150));
        assert_eq!(
            sql("kind = a OR kind = b OR kind = c").0,
            "(ifnull(kind = ?, 0) OR ifnull(kind = ?, 0) OR ifnull(kind = ?, 0))"
        );
    }
}

#[cfg(test)]
mod proptests {
    use super::*;
    use crate::small_stack::on_small_stack;
    use proptest::prelude::*;

    /// How deep `expr` nests (the recursion `to_sql` and drop will do).
    fn depth(expr: &Expr) -> usize {
        match expr {
            Expr::And(all) | Expr::Or(all) => 1 + all.iter().map(depth).max().unwrap_or(0),
            Expr::Not(inner) => 1 + depth(inner),
            Expr::Compare(..) => 1,
        }
    }

    /// Parses, renders and drops `text` on a small stack; what parse said.
    fn exercise(text: String) -> Result<(), String> {
        on_small_stack(move || {
            let parsed = parse(&text);
            if text.chars().count() > MAX_CHARS {
                assert!(parsed.is_err(), "an over-long filter was read");
            }
            if let Ok(Some(expr)) = &parsed {
                // Each ( may add an AND, an OR and the NOT before it.
                assert!(
                    depth(expr) <= 3 * MAX_DEPTH + 3,
                    "too deep: {}",
                    depth(expr)
                );
                let mut sql = String::new();
                let mut binds = Vec::new();
                expr.to_sql(&mut sql, &mut binds);
                assert_eq!(sql.matches('?').count(), binds.len(), "{sql}");
            }
            parsed.map(|_| ()).map_err(|error| error.to_string())
        })
    }

    /// Pieces a filter is made of, including the ones that nest.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "(",
            ")",
            "NOT ",
            "-",
            " AND ",
            " OR ",
            "done",
            "kind",
            "metadata.@type",
            "create_time",
            "end_time",
            "=",
            "!=",
            "<",
            ">=",
            "!",
            "true",
            "false",
            "\"",
            "\\",
            "sleep",
            "2026-01-31T00:00:00Z",
            "99999999999999999999-99-99T99:99:99Z",
            "-170141183460469231731687303715884105728",
            " ",
            "\u{0}",
            "é",
            "\u{202e}",
        ])
    }

    proptest! {
        #[test]
        fn pieces_in_any_order_never_panic(pieces in prop::collection::vec(piece(), 0..600)) {
            let _ = exercise(pieces.concat());
        }

        #[test]
        fn any_text_never_panics(text in ".{0,2100}") {
            let _ = exercise(text);
        }

        #[test]
        fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..3000)) {
            let _ = exercise(String::from_utf8_lossy(&bytes).into_owned());
        }

        #[test]
        fn deep_nesting_is_refused_not_overflowed(
            openers in prop::collection::vec(prop::sample::select(vec!["(", "NOT ", "-", "NOT(", "-("]), 0..40_000),
            close in any::<bool>(),
        ) {
            let parens = openers.iter().filter(|o| o.contains('(')).count();
            let text = format!(
                "{}done = true{}",
                openers.concat(),
                if close { ")".repeat(parens) } else { String::new() }
            );
            let result = exercise(text);
            if openers.len() > MAX_DEPTH {
                prop_assert!(result.is_err());
            }
        }

        #[test]
        fn long_chains_are_read_flat(
            terms in prop::collection::vec(prop::sample::select(vec!["kind = a", "NOT done = true", "(kind = b OR kind = c)"]), 1..400),
            and in any::<bool>(),
        ) {
            let joiner = if and { " AND " } else { " OR " };
            let text = terms.join(joiner);
            let fits = text.chars().count() <= MAX_CHARS;
            prop_assert_eq!(exercise(text).is_ok(), fits);
        }
    }
}
