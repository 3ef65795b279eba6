//! The text of a given tree, one node after another in prefix order:
//!
//! ```text
//! node     := [label] ['=' value] ['(' node {sep node} ')']
//! label    := a letter, then letters, digits or '_'          (A, b2, root_1)
//! value    := an integer, optionally signed                  (for the root player, MAX)
//! sep      := spaces, newlines, ',' or ';'
//! comment  := '#' up to the end of the line
//! ```
//!
//! A node without children is a leaf and needs a value (`D=2`, or just `2` when it has no label); a node with
//! children may carry a value too (`B=5(...)`), its heuristic evaluation for a search that stops there (0 otherwise).
//! Labels are optional but unique. The course's alpha-beta walk-through reads
//! `A(B(C(D=2 E=1) F(G=6 H=9)) I(J(K=8 L=3) M(N=5 O=2)) P(Q(R=3 S=4) T(U=0 V=0)))`.

use crate::game::{GameError, MAX_MOVES, err};

/// Most nodes of a given tree.
pub(crate) const MAX_NODES: usize = 100_000;
/// Deepest given tree (plies from the root to its deepest leaf).
pub(crate) const MAX_DEPTH: usize = 64;
/// Largest value (in absolute value).
pub(crate) const MAX_VALUE: i32 = 1_000_000;

/// One node of the tree, stored in prefix order (the root is node 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TreeNode {
    pub label: Option<String>,
    /// For the root player (MAX): a leaf's value, or an interior node's evaluation.
    pub value: Option<i32>,
    pub parent: Option<u32>,
    pub children: Vec<u32>,
    pub ply: u32,
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
    nodes: Vec<TreeNode>,
}

impl Parser<'_> {
    fn skip(&mut self) {
        while self.at < self.text.len() {
            match self.text[self.at] {
                b' ' | b'\t' | b'\r' | b'\n' | b',' | b';' => self.at += 1,
                b'#' => {
                    while self.at < self.text.len() && self.text[self.at] != b'\n' {
                        self.at += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn fail<T>(&self, what: &str) -> Result<T, GameError> {
        let near: String =
            String::from_utf8_lossy(&self.text[self.at.min(self.text.len())..]).chars().take(12).collect();
        let near = if near.is_empty() { "the end".to_string() } else { format!("'{near}'") };
        err(format!("tree text: {what} at character {} (near {near})", self.at + 1))
    }

    fn value(&mut self) -> Result<i32, GameError> {
        let start = self.at;
        if matches!(self.peek(), Some(b'-') | Some(b'+')) {
            self.at += 1;
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let word = std::str::from_utf8(&self.text[start..self.at]).unwrap_or("");
        match word.parse::<i32>() {
            Ok(v) if v.abs() <= MAX_VALUE => Ok(v),
            Ok(_) => {
                self.at = start;
                self.fail(&format!("a value out of -{MAX_VALUE}..={MAX_VALUE}"))
            }
            Err(_) => {
                self.at = start;
                self.fail("expected a value (an integer)")
            }
        }
    }

    fn node(&mut self, parent: Option<u32>, ply: u32) -> Result<u32, GameError> {
        if ply as usize > MAX_DEPTH {
            return self.fail(&format!("the tree is deeper than {MAX_DEPTH} plies"));
        }
        if self.nodes.len() >= MAX_NODES {
            return self.fail(&format!("more than {MAX_NODES} nodes"));
        }
        self.skip();
        let mut label = None;
        let mut value = None;
        match self.peek() {
            Some(c) if c.is_ascii_alphabetic() => {
                let start = self.at;
                while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
                    self.at += 1;
                }
                label = Some(String::from_utf8_lossy(&self.text[start..self.at]).into_owned());
                if self.peek() == Some(b'=') {
                    self.at += 1;
                    value = Some(self.value()?);
                }
            }
            Some(c) if c.is_ascii_digit() || c == b'-' || c == b'+' => value = Some(self.value()?),
            Some(b'(') => {}
            _ => return self.fail("expected a node (a label, a value or '(')"),
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(TreeNode { label, value, parent, children: Vec::new(), ply });
        if self.peek() == Some(b'(') {
            self.at += 1;
            loop {
                self.skip();
                match self.peek() {
                    Some(b')') => {
                        self.at += 1;
                        break;
                    }
                    None => return self.fail("missing ')'"),
                    _ => {
                        if self.nodes[id as usize].children.len() >= MAX_MOVES {
                            return self.fail(&format!("a node with more than {MAX_MOVES} children"));
                        }
                        let c = self.node(Some(id), ply + 1)?;
                        self.nodes[id as usize].children.push(c);
                    }
                }
            }
            if self.nodes[id as usize].children.is_empty() {
                return self.fail("'()' with no child: a leaf is written with its value only");
            }
        } else if self.nodes[id as usize].value.is_none() {
            return self.fail("a leaf needs a value (D=2, or 2)");
        }
        Ok(id)
    }
}

/// Read a tree; the root is node 0, nodes in prefix order.
pub(crate) fn parse_tree(text: &str) -> Result<Vec<TreeNode>, GameError> {
    let mut p = Parser { text: text.as_bytes(), at: 0, nodes: Vec::new() };
    p.node(None, 0)?;
    p.skip();
    if p.at < p.text.len() {
        return p.fail("text after the root's tree (one root only)");
    }
    let mut seen = std::collections::HashSet::new();
    for n in &p.nodes {
        if let Some(l) = &n.label
            && !seen.insert(l.as_str())
        {
            return err(format!("tree text: the label '{l}' is given to two nodes (labels must be unique)"));
        }
    }
    Ok(p.nodes)
}

/// The canonical text of a tree (what `parse_tree` reads back to the same nodes).
pub(crate) fn format_tree(nodes: &[TreeNode]) -> String {
    fn write(nodes: &[TreeNode], i: usize, out: &mut String) {
        let n = &nodes[i];
        if let Some(l) = &n.label {
            out.push_str(l);
        }
        if let Some(v) = n.value {
            if n.label.is_some() {
                out.push('=');
            }
            out.push_str(&v.to_string());
        }
        if !n.children.is_empty() {
            out.push('(');
            for (k, &c) in n.children.iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                }
                write(nodes, c as usize, out);
            }
            out.push(')');
        }
    }
    let mut out = String::new();
    write(nodes, 0, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_labels_values_and_shapes() {
        let t = parse_tree("A(B(2, C=-3) # a comment\n  7; D=4(1 2 3))").unwrap();
        assert_eq!(t.len(), 9);
        assert_eq!(t[0].children, vec![1, 4, 5]);
        assert_eq!(t[1].children, vec![2, 3]);
        assert_eq!((t[3].label.as_deref(), t[3].value, t[3].ply), (Some("C"), Some(-3), 2));
        assert_eq!((t[4].label.as_deref(), t[4].value), (None, Some(7)));
        assert_eq!((t[5].value, t[5].children.len()), (Some(4), 3));
        assert_eq!(format_tree(&t), "A(B(2 C=-3) 7 D=4(1 2 3))");
        assert_eq!(parse_tree(&format_tree(&t)).unwrap(), t);
        assert_eq!(parse_tree("5").unwrap().len(), 1);
    }

    #[test]
    fn bad_text_is_one_clear_error() {
        for (bad, says) in [
            ("A(B C=1)", "a leaf needs a value"),
            ("A(B=1 C=2", "missing ')'"),
            ("A()", "no child"),
            ("A(B=1) C=2", "one root only"),
            ("A(B=1 B=2)", "given to two nodes"),
            ("A(B=x)", "expected a value"),
            ("A(B=99999999)", "out of"),
            ("", "expected a node"),
            ("A(*)", "expected a node"),
        ] {
            let e = parse_tree(bad).unwrap_err().to_string();
            assert!(e.contains(says) && !e.contains('\n'), "{bad}: {e}");
        }
        let deep = format!("{}1{}", "(".repeat(MAX_DEPTH + 2), ")".repeat(MAX_DEPTH + 2));
        assert!(parse_tree(&deep).unwrap_err().to_string().contains("deeper"));
    }
}
