package roles

import (
	"context"
	"strings"

	"docsuite/pkg/geom"
)

// The Japanese reading. Tesseract's Russian and English models read
// nothing legible on a Japanese document (one word of the real licence
// specimen's 50 text lines), so the picture decided alone, and docnet does
// not know real Japanese licences. When the words read at the chosen
// orientation hold at most ideoMaxLegible legible words
// (classify.WordScore.Read), or at most ideoMaxGibberish making less
// than ideoLegibleShare of the words read (gibberish with a dictionary
// word or two in it: the same specimen mirrored and saved as a JPEG reads
// CAM and DEERE among 13; without that cap the pages of an English
// invoice rendered at 100 dpi, mostly gibberish with a few more words
// legible, were all read in Japanese too, 40 s -> 46 s for ten pages), on
// a crop of at least ideoMinLines text lines,
// its ideoLines tallest lines are read again with Tesseract's Japanese
// model, and the words in ideographs and kana some template prints or some field
// holds found in them (classify.TypeWords.IdeographicWords: 住所, 交付,
// 公安委員会) join the words read. A crop that reads legibly, as every
// Russian document does, is not read twice.
//
// The captions of a Japanese licence (住所, 交付, 免許の条件等) are
// smaller than its values: on the real specimen they are the 14th to 21st
// tallest lines wide enough to be read (wordLineAspect).
const (
	ideoMaxLegible   = 1
	ideoLegibleShare = 0.2
	ideoMaxGibberish = 2
	ideoMinLines     = 8
	ideoLines        = 24
)

// japaneseLang is Tesseract's code for its Japanese model
// (tesseract-ocr-jpn).
const japaneseLang = "jpn"

// withIdeographic returns words with the known words in ideographs found
// on the crop turned by rot added, when the crop's lines (of lines in
// all) call for the Japanese reading; words as they are otherwise.
func (z *zoneReader) withIdeographic(ctx context.Context, views *turnedViews, rot geom.Rotation, lines int, words readWordsOut) (readWordsOut, error) {
	if z.jpn == nil || lines < ideoMinLines {
		return words, nil
	}
	if !illegible(z.words.Score(words.words).Read, len(words.words)) {
		return words, nil
	}
	v, err := views.at(ctx, rot)
	if err != nil {
		return words, err
	}
	read, err := readWords(ctx, z.jpn, v.up, v.lines, 0, ideoLines)
	if err != nil {
		return words, err
	}
	out := readWordsOut{words: append([]string(nil), words.words...), conf: append([]float64(nil), words.conf...)}
	for _, l := range read {
		found := z.words.IdeographicWords(strings.Join(l.words, ""))
		mean := 0.0
		for _, c := range l.conf {
			mean += c / float64(len(l.conf))
		}
		for _, w := range found {
			out.words = append(out.words, w)
			out.conf = append(out.conf, mean)
		}
	}
	return out, nil
}

// illegible reports whether read legible words of n read are nothing
// legible: at most ideoMaxLegible, or at most ideoMaxGibberish making less
// than ideoLegibleShare of them.
func illegible(read, n int) bool {
	return read <= ideoMaxLegible || read <= ideoMaxGibberish && float64(read) < ideoLegibleShare*float64(n)
}
