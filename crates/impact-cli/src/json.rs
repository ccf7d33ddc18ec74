//! A small JSON reader that remembers where every value starts, and a pretty printer.
//!
//! serde_json says where a syntax error is, but a parsed `serde_json::Value` forgets where its
//! parts came from, so a problem found later (a polygon whose points make no hull) could not
//! point into the file. [`parse`] keeps the line and column of every value and object key,
//! and numbers as written, so that readers can convert them to the exact type they need
//! (`1e999` is reported, not turned into infinity). [`pretty`] prints a tree back with short
//! arrays of numbers on one line.

use std::fmt::{self, Write as _};

/// How deep arrays and objects may nest before the input is refused (a guard for the stack).
const MAX_DEPTH: usize = 128;

/// A place in the text: line and column, both from 1; columns count characters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A JSON value and where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The position of the value's first character.
    pub pos: Pos,
    /// The value.
    pub value: Value,
}

/// A JSON value whose parts are [`Node`]s.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, exactly as written (valid JSON number syntax).
    Number(String),
    /// A string, unescaped.
    String(String),
    /// An array.
    Array(Vec<Node>),
    /// An object's members in the order written.
    Object(Vec<Member>),
}

/// One `"key": value` of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// The key, unescaped.
    pub key: String,
    /// Where the key's opening quote is.
    pub key_pos: Pos,
    /// The value.
    pub value: Node,
}

/// Why the text is not JSON, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    /// Where the problem was found.
    pub pos: Pos,
    /// What is wrong.
    pub message: String,
}

/// Parses one JSON value, with nothing but whitespace around it.
///
/// Errors: [`SyntaxError`] at the first character that does not fit the JSON grammar, or
/// nesting deeper than 128 levels.
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    let mut parser = Parser { bytes: text.as_bytes(), at: 0, pos: Pos { line: 1, column: 1 } };
    if parser.peek() == Some(0xEF) && text.starts_with('\u{feff}') {
        parser.at = 3; // A byte-order mark is not part of the value.
    }
    parser.skip_whitespace();
    let node = parser.value(0)?;
    parser.skip_whitespace();
    match parser.peek() {
        None => Ok(node),
        Some(_) => Err(parser.error(format!("unexpected {} after the end of the value", parser.found()))),
    }
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    pos: Pos,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// Consumes one byte, keeping the position: a column is a character, so UTF-8
    /// continuation bytes do not move it.
    fn bump(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        if byte == b'\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else if byte & 0xC0 != 0x80 {
            self.pos.column += 1;
        }
        Some(byte)
    }

    fn error(&self, message: String) -> SyntaxError {
        SyntaxError { pos: self.pos, message }
    }

    /// The next character, described for an error message.
    fn found(&self) -> String {
        let rest = std::str::from_utf8(&self.bytes[self.at..]).unwrap_or("");
        match rest.chars().next() {
            None => "end of file".into(),
            Some(c) if c.is_alphabetic() => {
                let word: String = rest.chars().take_while(|c| c.is_alphanumeric()).take(16).collect();
                format!("`{word}`")
            }
            Some(c) if c.is_control() => format!("`{}`", c.escape_debug()),
            Some(c) => format!("`{c}`"),
        }
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.bump();
        }
    }

    /// Consumes `byte` or fails with "expected {what}".
    fn expect(&mut self, byte: u8, what: &str) -> Result<(), SyntaxError> {
        if self.peek() == Some(byte) {
            self.bump();
            Ok(())
        } else {
            Err(self.error(format!("expected {what}, found {}", self.found())))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        let pos = self.pos;
        let value = match self.peek() {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Value::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => Value::Number(self.number()?),
            Some(b't') => self.literal("true", Value::Bool(true))?,
            Some(b'f') => self.literal("false", Value::Bool(false))?,
            Some(b'n') => self.literal("null", Value::Null)?,
            _ => {
                let found = self.found();
                let hint = match found.as_str() {
                    "`NaN`" | "`Infinity`" => " (JSON has no such number)",
                    _ => "",
                };
                return Err(self.error(format!("expected a value, found {found}{hint}")));
            }
        };
        Ok(Node { pos, value })
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, SyntaxError> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            for _ in 0..word.len() {
                self.bump();
            }
            Ok(value)
        } else {
            Err(self.error(format!("expected a value, found {}", self.found())))
        }
    }

    fn nested(&self, depth: usize) -> Result<usize, SyntaxError> {
        if depth >= MAX_DEPTH {
            return Err(self.error(format!("arrays and objects nest deeper than {MAX_DEPTH} levels")));
        }
        Ok(depth + 1)
    }

    fn object(&mut self, depth: usize) -> Result<Value, SyntaxError> {
        let depth = self.nested(depth)?;
        self.bump(); // {
        self.skip_whitespace();
        let mut members = Vec::new();
        if self.peek() == Some(b'}') {
            self.bump();
            return Ok(Value::Object(members));
        }
        loop {
            let key_pos = self.pos;
            if self.peek() != Some(b'"') {
                let trailing = if members.is_empty() { "" } else { " (no comma after the last field)" };
                return Err(
                    self.error(format!("expected a field name in double quotes{trailing}, found {}", self.found()))
                );
            }
            let key = self.string()?;
            self.skip_whitespace();
            self.expect(b':', "`:` after the field name")?;
            self.skip_whitespace();
            let value = self.value(depth)?;
            members.push(Member { key, key_pos, value });
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => {
                    self.bump();
                    self.skip_whitespace();
                }
                Some(b'}') => {
                    self.bump();
                    return Ok(Value::Object(members));
                }
                _ => return Err(self.error(format!("expected `,` or `}}` after a field, found {}", self.found()))),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, SyntaxError> {
        let depth = self.nested(depth)?;
        self.bump(); // [
        self.skip_whitespace();
        let mut items = Vec::new();
        if self.peek() == Some(b']') {
            self.bump();
            return Ok(Value::Array(items));
        }
        loop {
            if self.peek() == Some(b']') {
                return Err(self.error("expected a value (no comma after the last item), found `]`".into()));
            }
            items.push(self.value(depth)?);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => {
                    self.bump();
                    self.skip_whitespace();
                }
                Some(b']') => {
                    self.bump();
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error(format!("expected `,` or `]` after an item, found {}", self.found()))),
            }
        }
    }

    fn string(&mut self) -> Result<String, SyntaxError> {
        self.bump(); // "
        let mut out = Vec::new();
        loop {
            let Some(byte) = self.peek() else {
                return Err(self.error("end of file inside a string".into()));
            };
            match byte {
                b'"' => {
                    self.bump();
                    break;
                }
                b'\\' => {
                    self.bump();
                    self.escape(&mut out)?;
                }
                0..0x20 => return Err(self.error("control character inside a string (write it as an escape)".into())),
                _ => {
                    out.push(byte);
                    self.bump();
                }
            }
        }
        // The input is a str and escapes are pushed as UTF-8, so the bytes are UTF-8.
        Ok(String::from_utf8(out).expect("strings of a str stay UTF-8"))
    }

    /// Reads what follows a backslash.
    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), SyntaxError> {
        let simple = match self.peek() {
            Some(b'"') => b'"',
            Some(b'\\') => b'\\',
            Some(b'/') => b'/',
            Some(b'b') => 0x08,
            Some(b'f') => 0x0C,
            Some(b'n') => b'\n',
            Some(b'r') => b'\r',
            Some(b't') => b'\t',
            Some(b'u') => {
                let c = self.unicode_escape()?;
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                return Ok(());
            }
            _ => return Err(self.error(format!("invalid escape `\\{}`", self.found().trim_matches('`')))),
        };
        self.bump();
        out.push(simple);
        Ok(())
    }

    /// Reads `uXXXX` (after the backslash), and its low surrogate `\uXXXX` if it is a high one.
    fn unicode_escape(&mut self) -> Result<char, SyntaxError> {
        let high = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&high) {
            if !self.bytes[self.at..].starts_with(b"\\u") {
                return Err(self.error("a high surrogate escape must be followed by a low one".into()));
            }
            self.bump();
            let low = self.hex4()?;
            if !(0xDC00..0xE000).contains(&low) {
                return Err(self.error("a high surrogate escape must be followed by a low one".into()));
            }
            0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        } else {
            high
        };
        char::from_u32(code).ok_or_else(|| self.error("a low surrogate escape without a high one".into()))
    }

    /// Reads `uXXXX`: the `u` and four hex digits.
    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        self.bump(); // u
        let mut code = 0;
        for _ in 0..4 {
            let digit = self.peek().and_then(|b| (b as char).to_digit(16));
            let Some(digit) = digit else {
                return Err(self.error("expected 4 hex digits after `\\u`".into()));
            };
            self.bump();
            code = code * 16 + digit;
        }
        Ok(code)
    }

    /// Reads a number by the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&mut self) -> Result<String, SyntaxError> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.bump();
        }
        match self.peek() {
            Some(b'0') => {
                self.bump();
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.error("a number cannot have leading zeros".into()));
                }
            }
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error(format!("expected a digit, found {}", self.found()))),
        }
        if self.peek() == Some(b'.') {
            self.bump();
            self.required_digits("after the decimal point")?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.bump();
            if let Some(b'+' | b'-') = self.peek() {
                self.bump();
            }
            self.required_digits("in the exponent")?;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).expect("ASCII digits");
        Ok(text.to_owned())
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.bump();
        }
    }

    fn required_digits(&mut self, place: &str) -> Result<(), SyntaxError> {
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.error(format!("expected a digit {place}, found {}", self.found())));
        }
        self.digits();
        Ok(())
    }
}

/// The widest an array may print on one line (characters, without indentation).
const INLINE_WIDTH: usize = 72;

/// Prints `node` as indented JSON: objects one member per line, arrays of numbers (and arrays
/// of short arrays of numbers, such as point lists) on one line while they fit in 72
/// characters. Numbers print as written, without a trailing `.0`.
pub fn pretty(node: &Node) -> String {
    let mut out = String::new();
    write_pretty(&mut out, node, 0);
    out.push('\n');
    out
}

fn write_pretty(out: &mut String, node: &Node, indent: usize) {
    match &node.value {
        Value::Object(members) if !members.is_empty() => {
            out.push_str("{\n");
            for (i, member) in members.iter().enumerate() {
                push_indent(out, indent + 1);
                write_string(out, &member.key);
                out.push_str(": ");
                write_pretty(out, &member.value, indent + 1);
                out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
            }
            push_indent(out, indent);
            out.push('}');
        }
        Value::Array(items) if !items.is_empty() => {
            if let Some(line) = inline(node).filter(|line| line.len() <= INLINE_WIDTH) {
                out.push_str(&line);
                return;
            }
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                push_indent(out, indent + 1);
                write_pretty(out, item, indent + 1);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            push_indent(out, indent);
            out.push(']');
        }
        _ => out.push_str(&inline(node).expect("scalars and empty containers print inline")),
    }
}

/// The one-line form of a scalar, an empty container, or an array of numbers or of arrays
/// of numbers; `None` for anything else.
fn inline(node: &Node) -> Option<String> {
    let mut out = String::new();
    match &node.value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(n.strip_suffix(".0").unwrap_or(n)),
        Value::String(s) => write_string(&mut out, s),
        Value::Object(members) if members.is_empty() => out.push_str("{}"),
        Value::Object(_) => return None,
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                let fits = match &item.value {
                    Value::Number(_) => true,
                    Value::Array(inner) => inner.iter().all(|x| matches!(x.value, Value::Number(_))),
                    _ => false,
                };
                if !fits {
                    return None;
                }
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&inline(item)?);
            }
            out.push(']');
        }
    }
    Some(out)
}

fn write_string(out: &mut String, s: &str) {
    let quoted = serde_json::to_string(s).expect("a str always serializes");
    let _ = write!(out, "{quoted}");
}

fn push_indent(out: &mut String, indent: usize) {
    for _ in 0..indent {
        out.push_str("  ");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        let e = parse(text).expect_err(text);
        format!("{}: {}", e.pos, e.message)
    }

    #[test]
    fn values_keep_their_positions() {
        let node = parse("{\n  \"a\": [1, -2.5e3, true],\n  \"bé\": {\"c\": null, \"d\": \"x\\u00e9\\n\"}\n}").unwrap();
        let Value::Object(members) = &node.value else { panic!() };
        assert_eq!(node.pos, Pos { line: 1, column: 1 });
        assert_eq!(members[0].key_pos, Pos { line: 2, column: 3 });
        let Value::Array(items) = &members[0].value.value else { panic!() };
        assert_eq!(items[1].value, Value::Number("-2.5e3".into()));
        assert_eq!(items[1].pos, Pos { line: 2, column: 12 });
        assert_eq!(members[1].key, "bé");
        // Columns count characters: é is one.
        assert_eq!(members[1].value.pos, Pos { line: 3, column: 9 });
        let Value::Object(inner) = &members[1].value.value else { panic!() };
        assert_eq!(inner[1].value.value, Value::String("xé\n".into()));
        assert_eq!(inner[1].value.pos, Pos { line: 3, column: 26 });
    }

    #[test]
    fn escapes_and_surrogates() {
        let node = parse(r#""\"\\\/\b\f\n\r\t\ud83d\ude00""#).unwrap();
        assert_eq!(node.value, Value::String("\"\\/\u{8}\u{c}\n\r\t😀".into()));
        assert_eq!(error(r#""\ud83d x""#), "1:8: a high surrogate escape must be followed by a low one");
        assert_eq!(error(r#""\ude00""#), "1:8: a low surrogate escape without a high one");
        assert_eq!(error(r#""\q""#), "1:3: invalid escape `\\q`");
        assert_eq!(error(r#""\u12g4""#), "1:6: expected 4 hex digits after `\\u`");
    }

    #[test]
    fn syntax_errors_point_at_the_problem() {
        assert_eq!(error(""), "1:1: expected a value, found end of file");
        assert_eq!(
            error("{\"a\": 1,}"),
            "1:9: expected a field name in double quotes (no comma after the last field), found `}`"
        );
        assert_eq!(error("[1, 2,]"), "1:7: expected a value (no comma after the last item), found `]`");
        assert_eq!(error("{\"a\" 1}"), "1:6: expected `:` after the field name, found `1`");
        assert_eq!(error("{\"a\": 1\n \"b\": 2}"), "2:2: expected `,` or `}` after a field, found `\"`");
        assert_eq!(error("[1 2]"), "1:4: expected `,` or `]` after an item, found `2`");
        assert_eq!(error("{'a': 1}"), "1:2: expected a field name in double quotes, found `'`");
        assert_eq!(error("[NaN]"), "1:2: expected a value, found `NaN` (JSON has no such number)");
        assert_eq!(error("[tru]"), "1:2: expected a value, found `tru`");
        assert_eq!(error("[01]"), "1:3: a number cannot have leading zeros");
        assert_eq!(error("[1.]"), "1:4: expected a digit after the decimal point, found `]`");
        assert_eq!(error("[1e+]"), "1:5: expected a digit in the exponent, found `]`");
        assert_eq!(error("[-x]"), "1:3: expected a digit, found `x`");
        assert_eq!(error("\"a\nb\""), "1:3: control character inside a string (write it as an escape)");
        assert_eq!(error("\"abc"), "1:5: end of file inside a string");
        assert_eq!(error("{} x"), "1:4: unexpected `x` after the end of the value");
        assert_eq!(error("[[[[1]"), "1:7: expected `,` or `]` after an item, found end of file");
        let deep = "[".repeat(200);
        assert_eq!(error(&deep), "1:129: arrays and objects nest deeper than 128 levels");
    }

    #[test]
    fn big_numbers_stay_as_written() {
        let node = parse("[1e999, -0, 18446744073709551615]").unwrap();
        let Value::Array(items) = node.value else { panic!() };
        let texts: Vec<_> = items.iter().map(|n| n.value.clone()).collect();
        assert_eq!(texts, ["1e999", "-0", "18446744073709551615"].map(|s| Value::Number(s.into())));
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert_eq!(parse("\u{feff} [1]").unwrap().pos, Pos { line: 1, column: 2 });
    }

    #[test]
    fn pretty_keeps_point_lists_on_one_line() {
        let text = r#"{"name":"x","empty":[],"obj":{},"v":[0.0,-10.0],"points":[[0.0,1.5],[2.0,3.0]],
            "long":[1000000.0,1000000.0,1000000.0,1000000.0,1000000.0,1000000.0,1000000.0,1000000.0,1000000.0],
            "list":[{"a":true},{"b":null}]}"#;
        let printed = pretty(&parse(text).unwrap());
        let expected = r#"{
  "name": "x",
  "empty": [],
  "obj": {},
  "v": [0, -10],
  "points": [[0, 1.5], [2, 3]],
  "long": [
    1000000,
    1000000,
    1000000,
    1000000,
    1000000,
    1000000,
    1000000,
    1000000,
    1000000
  ],
  "list": [
    {
      "a": true
    },
    {
      "b": null
    }
  ]
}
"#;
        assert_eq!(printed, expected);
        assert_eq!(pretty(&parse(&printed).unwrap()), printed);
    }
}
