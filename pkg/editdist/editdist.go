// Package editdist measures how far apart two words are: the Levenshtein
// distance (insertions, deletions and substitutions of one character
// each), with a limit past which the search stops.
package editdist

// Distance is the Levenshtein distance of a and b, or limit when it is
// limit or more (limit <= 0: no limit).
func Distance(a, b []rune, limit int) int {
	if limit <= 0 {
		limit = len(a) + len(b) + 1
	}
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c = 1 + min(c, prev[j], cur[j-1])
			}
			cur[j] = c
			rowMin = min(rowMin, c)
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}

// Strings is Distance of two strings, character by character, with no
// limit.
func Strings(a, b string) int {
	return Distance([]rune(a), []rune(b), 0)
}
