//! Why a tool ranks where it does: the hits of `search` (or `hybrid`), each with its score
//! taken apart. Not on a turn's path: it may allocate per tool.
//!
//! The hits are the ranking's own (the same call); the parts come from what the ranking
//! summed. A tool's lexical score is the sum over the query's terms of the term's posting
//! score, and BM25F makes that one score of the term's pseudo-frequency in the tool, the sum
//! over fields of frequency × field factor (`norms`): a field's part of the term's score is
//! its share of that sum. So the fields' parts add up to the lexical score, and a hybrid
//! hit's fused parts (`Fusion::lexical_part`, `Fusion::embedding_part`) to its score.
//!
//! The fields' frequencies and lengths are not in the posting scores (nor the texts in the
//! index), so only an index built to explain keeps them (`Counts`); searching never reads them.

use super::vectors::QueryScratch;
use super::{
    norms, sort_best_first, tf_of, Counts, Field, Fusion, Index, FIELDS, NONE, TF_BITS, WIDE,
};
use alloc::vec::Vec;

/// A hit and how its score came to be.
#[derive(Debug, Clone, PartialEq)]
pub struct Explained {
    /// The tool's index (the binding puts the caller's own name there).
    pub tool: u32,
    /// As `search` scores it.
    pub score: f64,
    /// Its place among the hits, from 1.
    pub rank: u32,
    /// Its lexical score and rank, and their parts; `None` when it shares no term with the query.
    pub lexical: Option<Lexical>,
    /// Its cosine with the query's vector and its rank by it (hybrid ranking only).
    pub vector: Option<Similarity>,
    /// What each ranking added to its score (hybrid ranking only).
    pub fused: Option<Fused>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Lexical {
    pub score: f64,
    /// Its place in the lexical ranking, from 1.
    pub rank: u32,
    /// The fields where the query's terms are, in field order; their scores add up to `score`.
    pub fields: Vec<FieldParts>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FieldParts {
    pub field: Field,
    /// The sum of its terms' scores.
    pub score: f64,
    /// The query's terms in this field, in the query's order.
    pub terms: Vec<TermPart>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TermPart {
    /// The term: its place in `Explanation::terms`.
    pub term: u32,
    /// The field's share of the term's score.
    pub score: f64,
    /// How often the term is in the field (saturating at 63).
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Similarity {
    pub similarity: f64,
    /// Its place among every tool by cosine, from 1.
    pub rank: u32,
}

/// A hybrid hit's score: `lexical + vector`, each 0 for a tool beyond the depth of that
/// ranking the fusion reads (`Fusion::depth`, `Fusion::embedding_depth`).
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    pub lexical: f64,
    pub vector: f64,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Explanation {
    pub hits: Vec<Explained>,
    /// The query's terms (term ids: `Index::term`), each once, in the order they come.
    pub terms: Vec<u32>,
}

/// Per tool, its place (from 0) in `ranked`, or `NONE`: ranks in linear time, whatever
/// the number of hits explained.
fn places(n: usize, ranked: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut at = alloc::vec![NONE; n];
    for (rank, tool) in ranked.enumerate() {
        at[tool as usize] = rank as u32;
    }
    at
}

impl Counts {
    /// Posting `p`'s packed field frequencies (`tf_of`).
    fn tfs(&self, p: usize) -> u32 {
        let c = self.post_tf[p];
        if c == WIDE {
            let k = self.wide_at.binary_search(&(p as u32));
            return k.map_or(0, |k| self.wide[k]);
        }
        let mut tfs = 0;
        for f in 0..FIELDS {
            tfs |= u32::from(c >> (3 * f) & 7) << (TF_BITS * f as u32);
        }
        tfs
    }
}

impl Index {
    /// Whether the index keeps what `explain` needs (`Index::build_with`'s `explain`).
    pub fn explains(&self) -> bool {
        self.counts.is_some()
    }

    /// Term `id`'s code units (a term of `Explanation::terms`).
    pub fn term(&self, id: u32) -> &[u16] {
        self.terms.get(id)
    }

    /// The hits of `search(query, limit)`, or with `vector` of `hybrid`, explained; `None`
    /// when the index keeps no counts to explain with (`Index::explains`).
    pub fn explain(
        &self,
        query: &[u16],
        vector: Option<(&[f64], &Fusion)>,
        limit: usize,
    ) -> Option<Explanation> {
        let counts = self.counts.as_ref()?;
        let mut hits = Vec::new();
        self.ranked(query, vector, limit, &mut hits);
        let mut out = Explanation::default();
        if hits.is_empty() {
            return Some(out);
        }
        let mut s = self.scratch();
        self.query_terms(&mut s, query);
        out.terms = s.terms;
        let n = self.len();
        let mut lexical = Vec::new();
        self.search(query, n, &mut lexical);
        let lexical_at = places(n, lexical.iter().map(|h| h.tool));
        // Hybrid when `hybrid` fused: an index with vectors and a query vector that has a
        // direction (else it ranked lexically).
        let mut cosines = Vec::new();
        let fusion = vector.and_then(|(v, fusion)| {
            let vectors = self.vectors.as_ref()?;
            let mut scratch = QueryScratch::default();
            vectors
                .cosines(v, &mut scratch, &mut cosines)
                .then_some(fusion)
        });
        // The embedding's ranking, every tool, in the order the fusion takes it.
        let mut by_cosine: Vec<(f32, u32)> = Vec::new();
        if fusion.is_some() {
            by_cosine.extend(cosines.iter().enumerate().map(|(t, &c)| (c, t as u32)));
            sort_best_first(&mut by_cosine);
        }
        let cosine_at = places(n, by_cosine.iter().map(|&(_, t)| t));
        let best = lexical.first().map_or(1.0, |h| h.score);
        for (rank, hit) in hits.iter().enumerate() {
            let t = hit.tool as usize;
            // Its place in the lexical ranking, if any (from 0).
            let l = (lexical_at[t] != NONE).then_some(lexical_at[t] as usize);
            let lexical = l.map(|l| Lexical {
                score: lexical[l].score,
                rank: l as u32 + 1,
                fields: self.fields(counts, hit.tool, &out.terms),
            });
            let (vector, fused) = match fusion {
                None => (None, None),
                Some(fusion) => {
                    let (depth, embedding_depth) = fusion.depths(limit);
                    let c = cosine_at[t] as usize;
                    let lexical = match (&lexical, l) {
                        (Some(x), Some(l)) if l < depth => fusion.lexical_part(x.score, best, l),
                        _ => 0.0,
                    };
                    let embedding = if c < embedding_depth {
                        fusion.embedding_part(c)
                    } else {
                        0.0
                    };
                    let similarity = Similarity {
                        similarity: f64::from(cosines[t]),
                        rank: c as u32 + 1,
                    };
                    let fused = Fused {
                        lexical: f64::from(lexical),
                        vector: f64::from(embedding),
                    };
                    (Some(similarity), Some(fused))
                }
            };
            out.hits.push(Explained {
                tool: hit.tool,
                score: hit.score,
                rank: rank as u32 + 1,
                lexical,
                vector,
                fused,
            });
        }
        Some(out)
    }

    /// The parts of `tool`'s lexical score by field: each posting score of the query's
    /// `terms` shared out among the fields in proportion to their part of the term's
    /// pseudo-frequency, as the build summed it.
    fn fields(&self, counts: &Counts, tool: u32, terms: &[u32]) -> Vec<FieldParts> {
        let t = FIELDS * tool as usize;
        let norm = norms(&self.params, &counts.lens[t..t + FIELDS], &counts.avg);
        // Per term of the query in the tool: its place in `terms`, and its packed field
        // frequencies and their parts of its score.
        let mut found: Vec<(u32, u32, [f64; FIELDS])> = Vec::new();
        for (k, &t) in terms.iter().enumerate() {
            let (a, b) = self.postings(t);
            // Postings are in tool order.
            let Ok(i) = self.post_tool[a..b].binary_search(&tool) else {
                continue;
            };
            let (score, tfs) = (f64::from(self.post_score[a + i]), counts.tfs(a + i));
            let mut share = [0f64; FIELDS];
            for (f, s) in share.iter_mut().enumerate() {
                *s = f64::from(tf_of(tfs, f) as f32 * norm[f]);
            }
            let mut sum: f64 = share.iter().sum();
            if !(sum.is_finite() && sum > 0.0) {
                // Parameters that make the factors overflow (or vanish): shared by count.
                for (f, s) in share.iter_mut().enumerate() {
                    *s = f64::from(tf_of(tfs, f));
                }
                sum = share.iter().sum();
            }
            for s in &mut share {
                *s = score * *s / sum;
            }
            found.push((k as u32, tfs, share));
        }
        let mut fields = Vec::new();
        for (f, &field) in Field::ALL.iter().enumerate() {
            let terms: Vec<TermPart> = found
                .iter()
                .filter(|x| tf_of(x.1, f) > 0)
                .map(|&(term, tfs, share)| TermPart {
                    term,
                    score: share[f],
                    count: tf_of(tfs, f),
                })
                .collect();
            if !terms.is_empty() {
                let score = terms.iter().map(|x| x.score).sum();
                fields.push(FieldParts {
                    field,
                    score,
                    terms,
                });
            }
        }
        fields
    }
}
