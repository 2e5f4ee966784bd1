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

use std::fmt;

/// A filter that could not be read, in words naming where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("filter: {0}")]
pub struct FilterError(String);

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
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
        let mut left = self.or_expr()?;
        while self.keyword("AND") {
            left = Expr::And(Box::new(left), Box::new(self.or_expr()?));
        }
        Ok(left)
    }

    fn or_expr(&mut self) -> Result<Expr, FilterError> {
        let mut left = self.unary()?;
        while self.keyword("OR") {
            left = Expr::Or(Box::new(left), Box::new(self.unary()?));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, FilterError> {
        if self.keyword("NOT") {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        match self.peek() {
            Some(Token::Minus) => {
                self.at += 1;
                Ok(Expr::Not(Box::new(self.unary()?)))
            }
            Some(Token::Open) => {
                self.at += 1;
                let inner = self.and_expr()?;
                match self.next() {
                    Some(Token::Close) => Ok(inner),
                    _ => Err(FilterError("expected )".into())),
                }
            }
            _ => self.comparison(),
        }
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
    let tokens = tokens(text)?;
    if tokens.is_empty() {
        return Ok(None);
    }
    let mut parser = Parser { tokens, at: 0 };
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
            Self::And(left, right) | Self::Or(left, right) => {
                let joiner = if matches!(self, Self::And(..)) {
                    " AND "
                } else {
                    " OR "
                };
                sql.push('(');
                left.to_sql(sql, binds);
                sql.push_str(joiner);
                right.to_sql(sql, binds);
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
}
