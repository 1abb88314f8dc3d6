//! Pods — placeholder until the rules land (see ../shared/rules/pods.md).

use super::{Game, Outcome, RuleError, Side, Terminal};

#[derive(Clone, Debug, Default)]
pub struct Pods {
    pub advanced: bool,
}

impl Pods {
    pub fn new(advanced: bool) -> Pods {
        Pods { advanced }
    }
}

impl Game for Pods {
    type Pos = ();
    type Move = u32;

    fn name(&self) -> &'static str {
        if self.advanced {
            "pods-advanced"
        } else {
            "pods-standard"
        }
    }
    fn side_names(&self) -> [&'static str; 2] {
        ["white", "black"]
    }
    fn start(&self) -> Self::Pos {}
    fn side_to_move(&self, _pos: &Self::Pos) -> Side {
        Side::P1
    }
    fn legal_moves(&self, _pos: &Self::Pos, _out: &mut Vec<Self::Move>) {}
    fn make(&self, _pos: &Self::Pos, _mv: Self::Move) -> Self::Pos {}
    fn hash(&self, _pos: &Self::Pos) -> u64 {
        0
    }
    fn terminal(&self, _pos: &Self::Pos) -> Option<Terminal> {
        None
    }
    fn no_moves(&self, _pos: &Self::Pos) -> Terminal {
        Terminal::new(Outcome::Draw, "not implemented")
    }
    fn format_move(&self, _pos: &Self::Pos, mv: Self::Move) -> String {
        mv.to_string()
    }
    fn parse_move(&self, _pos: &Self::Pos, text: &str) -> Result<Self::Move, RuleError> {
        Err(RuleError::Syntax(text.to_string()))
    }
    fn format_position(&self, _pos: &Self::Pos) -> String {
        String::from("-")
    }
    fn parse_position(&self, text: &str) -> Result<Self::Pos, RuleError> {
        Err(RuleError::InvalidPosition(format!(
            "'{text}': pods-standard is not implemented yet"
        )))
    }
    fn render(&self, _pos: &Self::Pos) -> String {
        String::from("(no board)")
    }
    fn evaluate(&self, _pos: &Self::Pos) -> i32 {
        0
    }
}
