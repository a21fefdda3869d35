//! A JSON object read while it is still being written: the part of a streamed reply that
//! is already certain. A bounded, one-pass reader of a prefix: finished values come whole,
//! the string being written comes as far as it is decoded (an escape or a surrogate pair cut
//! in two waits for its second half), and an object being written shows its finished fields.
//! A list shows only its finished items, so a review's findings appear one by one. Nothing
//! is guessed: a number or `true` cut short is left out until it ends.

use serde_json::{Map, Value};

/// Nesting deeper than this is not read (a reply is a few levels deep).
const MAX_DEPTH: usize = 32;

/// The object a streamed reply is writing, as far as it is certain; `None` before its `{`
/// or when what came is not JSON. Text before the `{` (a code fence, a sentence) is skipped.
pub fn partial_object(text: &str) -> Option<Map<String, Value>> {
    let start = text.find('{')?;
    let mut reader = Reader {
        chars: text[start..].chars().collect(),
        at: 0,
    };
    match reader.value(0, false).ok()? {
        Read::Whole(Value::Object(map)) | Read::Cut(Some(Value::Object(map))) => Some(map),
        _ => None,
    }
}

/// What reading one value gave.
enum Read {
    /// The value is complete.
    Whole(Value),
    /// The text ended inside the value: what of it is certain, if anything.
    Cut(Option<Value>),
}

/// Not JSON.
struct Invalid;

struct Reader {
    chars: Vec<char>,
    at: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self
            .peek()
            .is_some_and(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))
        {
            self.at += 1;
        }
    }

    /// One value; `in_list`: an item of a list, which shows only when it is finished.
    fn value(&mut self, depth: usize, in_list: bool) -> Result<Read, Invalid> {
        if depth > MAX_DEPTH {
            return Err(Invalid);
        }
        self.skip_space();
        match self.peek() {
            None => Ok(Read::Cut(None)),
            Some('{') => self.object(depth, in_list),
            Some('[') => self.list(depth, in_list),
            Some('"') => match self.string()? {
                (text, true) => Ok(Read::Whole(Value::String(text))),
                (_, false) if in_list => Ok(Read::Cut(None)),
                (text, false) => Ok(Read::Cut(Some(Value::String(text)))),
            },
            Some('t') => self.literal("true", Value::Bool(true)),
            Some('f') => self.literal("false", Value::Bool(false)),
            Some('n') => self.literal("null", Value::Null),
            Some(c) if c == '-' || c.is_ascii_digit() => self.number(),
            Some(_) => Err(Invalid),
        }
    }

    fn object(&mut self, depth: usize, in_list: bool) -> Result<Read, Invalid> {
        self.at += 1; // {
        let mut map = Map::new();
        let cut = |map: Map<String, Value>| Ok(Read::Cut((!in_list).then_some(Value::Object(map))));
        loop {
            self.skip_space();
            match self.peek() {
                None => return cut(map),
                Some('}') => {
                    self.at += 1;
                    return Ok(Read::Whole(Value::Object(map)));
                }
                Some('"') => {}
                Some(_) => return Err(Invalid),
            }
            let (key, finished) = self.string()?;
            if !finished {
                return cut(map);
            }
            self.skip_space();
            match self.peek() {
                None => return cut(map),
                Some(':') => self.at += 1,
                Some(_) => return Err(Invalid),
            }
            match self.value(depth + 1, false)? {
                Read::Whole(value) => {
                    map.insert(key, value);
                }
                Read::Cut(value) => {
                    if let Some(value) = value {
                        map.insert(key, value);
                    }
                    return cut(map);
                }
            }
            self.skip_space();
            match self.peek() {
                None => return cut(map),
                Some(',') => self.at += 1,
                Some('}') => {
                    self.at += 1;
                    return Ok(Read::Whole(Value::Object(map)));
                }
                Some(_) => return Err(Invalid),
            }
        }
    }

    fn list(&mut self, depth: usize, in_list: bool) -> Result<Read, Invalid> {
        self.at += 1; // [
        let mut items = Vec::new();
        let cut = |items: Vec<Value>| Ok(Read::Cut((!in_list).then_some(Value::Array(items))));
        loop {
            self.skip_space();
            match self.peek() {
                None => return cut(items),
                Some(']') => {
                    self.at += 1;
                    return Ok(Read::Whole(Value::Array(items)));
                }
                Some(_) => {}
            }
            match self.value(depth + 1, true)? {
                Read::Whole(value) => items.push(value),
                Read::Cut(_) => return cut(items),
            }
            self.skip_space();
            match self.peek() {
                None => return cut(items),
                Some(',') => self.at += 1,
                Some(']') => {
                    self.at += 1;
                    return Ok(Read::Whole(Value::Array(items)));
                }
                Some(_) => return Err(Invalid),
            }
        }
    }

    /// A string from its opening quote: its text decoded so far, and whether it closed.
    fn string(&mut self) -> Result<(String, bool), Invalid> {
        self.at += 1; // "
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Ok((out, false));
            };
            match c {
                '"' => {
                    self.at += 1;
                    return Ok((out, true));
                }
                '\\' => match self.escape()? {
                    Some(decoded) => out.push(decoded),
                    // The escape is cut short: what came before it is all that is certain.
                    None => return Ok((out, false)),
                },
                _ => {
                    out.push(c);
                    self.at += 1;
                }
            }
        }
    }

    /// An escape from its backslash; `None` when the text ends inside it.
    fn escape(&mut self) -> Result<Option<char>, Invalid> {
        let Some(kind) = self.chars.get(self.at + 1).copied() else {
            return Ok(None);
        };
        let simple = match kind {
            '"' => Some('"'),
            '\\' => Some('\\'),
            '/' => Some('/'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'u' => None,
            _ => return Err(Invalid),
        };
        if let Some(c) = simple {
            self.at += 2;
            return Ok(Some(c));
        }
        let Some(high) = self.hex_at(self.at + 2)? else {
            return Ok(None);
        };
        if !(0xD800..0xDC00).contains(&high) {
            self.at += 6;
            return char::from_u32(high).map(Some).ok_or(Invalid);
        }
        // Half of a surrogate pair: the other half must follow before anything shows.
        let low_at = self.at + 6;
        match (self.chars.get(low_at), self.chars.get(low_at + 1)) {
            (None, _) | (Some('\\'), None) => return Ok(None),
            (Some('\\'), Some('u')) => {}
            _ => return Err(Invalid),
        }
        let Some(low) = self.hex_at(low_at + 2)? else {
            return Ok(None);
        };
        if !(0xDC00..0xE000).contains(&low) {
            return Err(Invalid);
        }
        self.at += 12;
        let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
        char::from_u32(code).map(Some).ok_or(Invalid)
    }

    /// Four hex digits at `at`; `None` when the text ends before them.
    fn hex_at(&self, at: usize) -> Result<Option<u32>, Invalid> {
        let digits: String = self.chars.iter().skip(at).take(4).collect();
        if digits.chars().any(|c| !c.is_ascii_hexdigit()) {
            return Err(Invalid);
        }
        if digits.chars().count() < 4 {
            return Ok(None);
        }
        u32::from_str_radix(&digits, 16)
            .map(Some)
            .map_err(|_| Invalid)
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Read, Invalid> {
        for expected in word.chars() {
            match self.peek() {
                None => return Ok(Read::Cut(None)),
                Some(c) if c == expected => self.at += 1,
                Some(_) => return Err(Invalid),
            }
        }
        Ok(Read::Whole(value))
    }

    /// A number, whole only once something follows it (`1` may still become `12`).
    fn number(&mut self) -> Result<Read, Invalid> {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'))
        {
            self.at += 1;
        }
        if self.peek().is_none() {
            return Ok(Read::Cut(None));
        }
        let text: String = self.chars[start..self.at].iter().collect();
        serde_json::from_str::<serde_json::Number>(&text)
            .map(|n| Read::Whole(Value::Number(n)))
            .map_err(|_| Invalid)
    }
}

/// A streamed reply read as it comes: each piece is read once, where the reading stopped, and
/// [`Incremental::object`] is at every moment what [`partial_object`] gives for the whole text
/// so far. So a reply of `n` characters is read in `O(n)` over the stream, not once per piece.
#[derive(Debug, Default, Clone)]
pub struct Incremental {
    /// The first `{` has come.
    started: bool,
    /// The reply's object is closed: what follows is not read.
    done: bool,
    invalid: bool,
    /// The object when it closed.
    whole: Option<Map<String, Value>>,
    /// The values being written, outermost first.
    stack: Vec<Open>,
    token: Token,
}

/// An object or a list being written.
#[derive(Debug, Clone)]
enum Open {
    Object {
        map: Map<String, Value>,
        /// The key whose value is being written (after its colon).
        key: Option<String>,
        expect: InObject,
        in_list: bool,
    },
    List {
        items: Vec<Value>,
        expect: InList,
        in_list: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InObject {
    /// A key or the end (after `{` or `,`).
    KeyOrEnd,
    /// The colon after a key.
    Colon,
    /// The value after the colon.
    Value,
    /// A comma or the end, after a value.
    CommaOrEnd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InList {
    ValueOrEnd,
    CommaOrEnd,
}

/// The scalar being written.
#[derive(Debug, Clone, Default)]
enum Token {
    #[default]
    None,
    Str {
        text: String,
        key: bool,
        /// An escape begun: what came after its backslash.
        escape: Option<String>,
    },
    Number(String),
    Literal {
        word: &'static str,
        matched: usize,
        value: Value,
    },
}

impl Incremental {
    /// Nothing read yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads the next piece of the reply.
    pub fn push(&mut self, piece: &str) {
        for c in piece.chars() {
            if self.done || self.invalid {
                return;
            }
            if self.step(c).is_err() {
                self.invalid = true;
                self.stack.clear();
                self.token = Token::None;
            }
        }
    }

    /// What [`partial_object`] gives for the text read so far.
    pub fn object(&self) -> Option<Map<String, Value>> {
        if self.invalid || !self.started {
            return None;
        }
        if let Some(whole) = &self.whole {
            return Some(whole.clone());
        }
        let parent_is_list = matches!(self.stack.last(), Some(Open::List { .. }));
        let mut child = match &self.token {
            Token::Str {
                text, key: false, ..
            } if !parent_is_list => Some(Value::String(text.clone())),
            _ => None,
        };
        for open in self.stack.iter().rev() {
            child = match open {
                Open::Object {
                    map,
                    key,
                    expect,
                    in_list,
                } => {
                    if *in_list {
                        None
                    } else {
                        let mut map = map.clone();
                        if let (InObject::Value, Some(key), Some(value)) = (expect, key, child) {
                            map.insert(key.clone(), value);
                        }
                        Some(Value::Object(map))
                    }
                }
                Open::List { items, in_list, .. } => {
                    (!*in_list).then(|| Value::Array(items.clone()))
                }
            };
        }
        match child {
            Some(Value::Object(map)) => Some(map),
            _ => None,
        }
    }

    /// The string field `key` of the reply's object as [`Incremental::object`] shows it,
    /// without copying the object: finished, or as far as it is written.
    pub fn string_field(&self, key: &str) -> Option<&str> {
        if self.invalid || !self.started {
            return None;
        }
        let top = match (&self.whole, self.stack.first()) {
            (Some(whole), _) => return whole.get(key)?.as_str(),
            (None, Some(Open::Object { map, .. })) => map,
            _ => return None,
        };
        // The field being written (perhaps again) shows as the object shows it.
        let writing = matches!(
            self.stack.first(),
            Some(Open::Object { key: Some(k), expect: InObject::Value, .. }) if k == key
        );
        if writing {
            if self.stack.len() > 1 {
                return None; // an object or a list in its place
            }
            if let Token::Str {
                text, key: false, ..
            } = &self.token
            {
                return Some(text);
            }
        }
        top.get(key)?.as_str()
    }

    fn step(&mut self, c: char) -> Result<(), Invalid> {
        if !self.started {
            if c == '{' {
                self.started = true;
                self.stack.push(Open::Object {
                    map: Map::new(),
                    key: None,
                    expect: InObject::KeyOrEnd,
                    in_list: false,
                });
            }
            return Ok(());
        }
        match std::mem::take(&mut self.token) {
            Token::None => {}
            Token::Str { text, key, escape } => return self.in_string(c, text, key, escape),
            Token::Number(mut text) => {
                if c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E') {
                    text.push(c);
                    self.token = Token::Number(text);
                    return Ok(());
                }
                let number =
                    serde_json::from_str::<serde_json::Number>(&text).map_err(|_| Invalid)?;
                self.finished(Value::Number(number));
                // The character after the number is read where the number ended.
            }
            Token::Literal {
                word,
                matched,
                value,
            } => {
                if !word[matched..].starts_with(c) {
                    return Err(Invalid);
                }
                let matched = matched + c.len_utf8();
                if matched == word.len() {
                    self.finished(value);
                } else {
                    self.token = Token::Literal {
                        word,
                        matched,
                        value,
                    };
                }
                return Ok(());
            }
        }
        if self.done {
            return Ok(());
        }
        let space = matches!(c, ' ' | '\t' | '\n' | '\r');
        let depth = self.stack.len();
        match self.stack.last_mut() {
            None => Ok(()),
            Some(Open::Object { expect, .. }) => match (*expect, c) {
                (_, _) if space => Ok(()),
                (InObject::KeyOrEnd, '}') | (InObject::CommaOrEnd, '}') => {
                    self.close();
                    Ok(())
                }
                (InObject::KeyOrEnd, '"') => {
                    self.token = Token::Str {
                        text: String::new(),
                        key: true,
                        escape: None,
                    };
                    Ok(())
                }
                (InObject::Colon, ':') => {
                    *expect = InObject::Value;
                    if depth > MAX_DEPTH {
                        return Err(Invalid);
                    }
                    Ok(())
                }
                (InObject::Value, c) => self.begin(c, false),
                (InObject::CommaOrEnd, ',') => {
                    *expect = InObject::KeyOrEnd;
                    Ok(())
                }
                _ => Err(Invalid),
            },
            Some(Open::List { expect, .. }) => match (*expect, c) {
                (_, _) if space => Ok(()),
                (InList::ValueOrEnd, ']') | (InList::CommaOrEnd, ']') => {
                    self.close();
                    Ok(())
                }
                (InList::ValueOrEnd, c) => {
                    if depth > MAX_DEPTH {
                        return Err(Invalid);
                    }
                    self.begin(c, true)
                }
                (InList::CommaOrEnd, ',') => {
                    *expect = InList::ValueOrEnd;
                    Ok(())
                }
                _ => Err(Invalid),
            },
        }
    }

    /// The first character of a value (an item of a list when `in_list`).
    fn begin(&mut self, c: char, in_list: bool) -> Result<(), Invalid> {
        match c {
            '{' => self.stack.push(Open::Object {
                map: Map::new(),
                key: None,
                expect: InObject::KeyOrEnd,
                in_list,
            }),
            '[' => self.stack.push(Open::List {
                items: Vec::new(),
                expect: InList::ValueOrEnd,
                in_list,
            }),
            '"' => {
                self.token = Token::Str {
                    text: String::new(),
                    key: false,
                    escape: None,
                }
            }
            't' | 'f' | 'n' => {
                let (word, value) = match c {
                    't' => ("true", Value::Bool(true)),
                    'f' => ("false", Value::Bool(false)),
                    _ => ("null", Value::Null),
                };
                self.token = Token::Literal {
                    word,
                    matched: 1,
                    value,
                };
            }
            c if c == '-' || c.is_ascii_digit() => self.token = Token::Number(c.to_string()),
            _ => return Err(Invalid),
        }
        Ok(())
    }

    fn in_string(
        &mut self,
        c: char,
        mut text: String,
        key: bool,
        escape: Option<String>,
    ) -> Result<(), Invalid> {
        let Some(mut escape) = escape else {
            match c {
                '"' if key => {
                    if let Some(Open::Object { key: k, expect, .. }) = self.stack.last_mut() {
                        *k = Some(text);
                        *expect = InObject::Colon;
                    }
                }
                '"' => self.finished(Value::String(text)),
                '\\' => {
                    self.token = Token::Str {
                        text,
                        key,
                        escape: Some(String::new()),
                    }
                }
                c => {
                    text.push(c);
                    self.token = Token::Str {
                        text,
                        key,
                        escape: None,
                    };
                }
            }
            return Ok(());
        };
        escape.push(c);
        let decoded = decode_escape(&escape)?;
        if let Some(decoded) = decoded {
            text.push(decoded);
        }
        self.token = Token::Str {
            text,
            key,
            escape: decoded.is_none().then_some(escape),
        };
        Ok(())
    }

    /// A value is finished: it goes into the object or list it is part of.
    fn finished(&mut self, value: Value) {
        match self.stack.last_mut() {
            Some(Open::Object {
                map, key, expect, ..
            }) => {
                if let Some(key) = key.take() {
                    map.insert(key, value);
                }
                *expect = InObject::CommaOrEnd;
            }
            Some(Open::List { items, expect, .. }) => {
                items.push(value);
                *expect = InList::CommaOrEnd;
            }
            None => {}
        }
    }

    /// The innermost object or list ends.
    fn close(&mut self) {
        let Some(open) = self.stack.pop() else {
            return;
        };
        let value = match open {
            Open::Object { map, .. } => Value::Object(map),
            Open::List { items, .. } => Value::Array(items),
        };
        if self.stack.is_empty() {
            self.done = true;
            if let Value::Object(map) = value {
                self.whole = Some(map);
            }
        } else {
            self.finished(value);
        }
    }
}

/// An escape as far as it came (what follows its backslash): the character once it is
/// complete, `None` while it is not.
fn decode_escape(escape: &str) -> Result<Option<char>, Invalid> {
    let mut chars = escape.chars();
    let Some(kind) = chars.next() else {
        return Ok(None);
    };
    let simple = match kind {
        '"' => '"',
        '\\' => '\\',
        '/' => '/',
        'b' => '\u{8}',
        'f' => '\u{c}',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'u' => return decode_unicode(&escape[1..]),
        _ => return Err(Invalid),
    };
    Ok(Some(simple))
}

/// `XXXX` or a surrogate pair `XXXX\uYYYY`, as far as it came.
fn decode_unicode(rest: &str) -> Result<Option<char>, Invalid> {
    let hex = |digits: &str| -> Result<Option<u32>, Invalid> {
        if digits.chars().any(|c| !c.is_ascii_hexdigit()) {
            return Err(Invalid);
        }
        if digits.len() < 4 {
            return Ok(None);
        }
        u32::from_str_radix(digits, 16)
            .map(Some)
            .map_err(|_| Invalid)
    };
    let Some(high) = hex(&rest[..rest.len().min(4)])? else {
        return Ok(None);
    };
    if !(0xD800..0xDC00).contains(&high) {
        return char::from_u32(high).map(Some).ok_or(Invalid);
    }
    let low = &rest[4..];
    let mut chars = low.chars();
    match (chars.next(), chars.next()) {
        (None, _) | (Some('\\'), None) => return Ok(None),
        (Some('\\'), Some('u')) => {}
        _ => return Err(Invalid),
    }
    let Some(low) = hex(&low[2..])? else {
        return Ok(None);
    };
    if !(0xDC00..0xE000).contains(&low) {
        return Err(Invalid);
    }
    let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
    char::from_u32(code).map(Some).ok_or(Invalid)
}

/// The reader's promise: whether what it showed (`partial`) could become `whole`. Finished
/// values are equal, a string is a beginning of the final one, an object's fields are each
/// such a prefix, a list's items are equal and no more.
pub fn could_become(partial: &Value, whole: &Value) -> bool {
    match (partial, whole) {
        (Value::String(p), Value::String(w)) => w.starts_with(p.as_str()),
        (Value::Object(p), Value::Object(w)) => p
            .iter()
            .all(|(k, v)| w.get(k).is_some_and(|wv| could_become(v, wv))),
        (Value::Array(p), Value::Array(w)) => {
            p.len() <= w.len() && p.iter().zip(w).all(|(a, b)| a == b)
        }
        (p, w) => p == w,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn is_prefix(partial: &Value, whole: &Value) -> bool {
        could_become(partial, whole)
    }

    fn answers() -> Vec<String> {
        vec![
            json!({"emoji": null, "title": "Add \"two()\" beside one()", "message": "Line one.\nLine two: tab\there, é, 😀, \\ and /."}).to_string(),
            json!({"summary": "Two findings.", "findings": [
                {"severity": "high", "file": "src/a.rs", "line": 12, "title": "Unchecked index", "confidence": 0.85, "tags": ["bug", "panic"]},
                {"severity": "low", "file": "src/b.rs", "line": null, "title": "Name", "confidence": 1e-2, "tags": []}
            ], "ok": true}).to_string(),
            // As a model may write it: a fence, spacing, an escaped surrogate pair.
            "```json\n{\n  \"title\" : \"Fix \\ud83d\\ude00 and \\u00e9\",\n  \"list\": [ 1, -2.5, true, {\"a\": [\"x\"]} ]\n}\n```".to_string(),
        ]
    }

    #[test]
    fn every_prefix_gives_a_prefix_of_the_final_fields() {
        for answer in answers() {
            let start = answer.find('{').unwrap();
            let end = answer.rfind('}').unwrap() + 1;
            let whole: Value = serde_json::from_str(&answer[start..end]).unwrap();
            let mut last = Map::new();
            for (cut, _) in answer.char_indices().chain([(answer.len(), ' ')]) {
                let partial = partial_object(&answer[..cut]);
                if cut <= start {
                    assert_eq!(partial, None, "{cut}");
                    continue;
                }
                let partial = Value::Object(partial.unwrap_or_else(|| panic!("cut at {cut}")));
                assert!(is_prefix(&partial, &whole), "cut at {cut}: {partial}");
                // What showed never goes away.
                assert!(
                    is_prefix(&Value::Object(last.clone()), &partial),
                    "cut at {cut}"
                );
                last = partial.as_object().unwrap().clone();
            }
            assert_eq!(Value::Object(last), whole);
        }
    }

    #[test]
    fn the_string_being_written_shows_and_cut_escapes_wait() {
        let shown = |text: &str| Value::Object(partial_object(text).unwrap());
        assert_eq!(shown(r#"{"title": "Add tw"#), json!({"title": "Add tw"}));
        assert_eq!(shown(r#"{"title": "a\"#), json!({"title": "a"}));
        assert_eq!(shown(r#"{"title": "a\u00"#), json!({"title": "a"}));
        assert_eq!(shown(r#"{"title": "a\ud83d"#), json!({"title": "a"}));
        assert_eq!(shown(r#"{"title": "a\ud83d\ude0"#), json!({"title": "a"}));
        assert_eq!(
            shown(r#"{"title": "a\ud83d\ude00"#),
            json!({"title": "a😀"})
        );
        assert_eq!(shown(r#"{"ti"#), json!({}));
        assert_eq!(shown(r#"{"n": 1"#), json!({}));
        assert_eq!(shown(r#"{"n": 1,"#), json!({"n": 1}));
        assert_eq!(shown(r#"{"ok": tr"#), json!({}));
        assert_eq!(
            shown(r#"{"findings": [{"t": "a"}, {"t": "b"#),
            json!({"findings": [{"t": "a"}]})
        );
        assert_eq!(shown(r#"{"tags": ["a", "b"#), json!({"tags": ["a"]}));
        assert_eq!(
            shown(r#"{"pr": {"title": "x"#),
            json!({"pr": {"title": "x"}})
        );
    }

    /// Every prefix of each text, read piece by piece in pieces of many sizes, gives what
    /// reading the prefix whole gives.
    #[test]
    fn reading_piece_by_piece_gives_what_reading_the_whole_prefix_gives() {
        let mut texts = answers();
        texts.extend(
            [
                r#"Let me look. {"a": x"#,
                r#"{"a": "\q"}"#,
                r#"{"a": "\ud83d\u0041"}"#,
                r#"{"a": "\ud83dx"}"#,
                r#"{"a": "\udc00"}"#,
                r#"{"a": 1.2.3, "b": 2}"#,
                r#"{"a": -, "b": 2}"#,
                r#"{"a": tru, "b": 2}"#,
                r#"{"a": [1, [2, {"b": "c"}], "d"], "e": {"f": [true, "g"#,
                r#"{"a": 1,} trailing {"b": 2}"#,
                r#"{"a" "b"}"#,
                r#"{"a": [1 2]}"#,
                r#"{"a": nul}x"#,
                "{\"a\":\u{a0}1}",
                "{\"a\": \"日本語 ✨ 😀\", \"b\": [\"\\n\\t\"]}",
            ]
            .map(str::to_string),
        );
        texts.push("[".repeat(10).replace('[', "{\"a\":").repeat(10));
        texts.push(format!(
            "{{\"deep\": {}1{}}}",
            "[".repeat(40),
            "]".repeat(40)
        ));
        texts.push(format!(
            "{{\"deep\": {}1{}}}",
            "[".repeat(31),
            "]".repeat(31)
        ));
        for text in &texts {
            let cuts: Vec<usize> = text
                .char_indices()
                .map(|(i, _)| i)
                .chain([text.len()])
                .collect();
            for size in [1, 2, 3, 7, 64] {
                let mut reader = Incremental::new();
                let mut read = 0;
                for &cut in cuts.iter().step_by(size).chain([&text.len()]) {
                    reader.push(&text[read..cut]);
                    read = cut;
                    assert_eq!(
                        reader.object(),
                        partial_object(&text[..cut]),
                        "{text:?} cut at {cut} in pieces of {size}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_string_field_reads_as_the_object_shows_it() {
        for text in [
            r#"{"content": "Add two()\n\nBody é", "other": [1, {"content": "x"}]}"#,
            r#"{"other": {"content": "inner"}, "content": "outer", "content": "again"}"#,
            r#"{"content": 3, "content": "s"}"#,
            r#"{"content": "s", "content": {"a": "b"}, "content": "t"}"#,
        ] {
            let mut reader = Incremental::new();
            for (at, c) in text.char_indices() {
                reader.push(&text[at..at + c.len_utf8()]);
                let whole = partial_object(&text[..at + c.len_utf8()]);
                let shown = whole.as_ref().and_then(|o| o.get("content")?.as_str());
                assert_eq!(reader.string_field("content"), shown, "{text} at {at}");
            }
        }
    }

    #[test]
    fn what_is_not_json_gives_nothing() {
        assert_eq!(partial_object("Let me look at the diff first."), None);
        assert_eq!(partial_object(r#"{"a": x"#), None);
        assert_eq!(partial_object(r#"{"a": "\q"}"#), None);
        assert_eq!(
            partial_object(&"[".repeat(10).replace('[', "{\"a\":").repeat(10)),
            None
        );
    }
}
