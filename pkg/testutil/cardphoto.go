package testutil

import (
	"fmt"
	"testing"

	"docsuite/pkg/geom"
)

// CardPhotoQuad is where CardPhoto lays its card on the page: TL, TR, BL,
// BR of the card as it lies (turned a quarter clockwise, so its upright
// top-left corner is the TR one here).
var CardPhotoQuad = geom.Quad{{X: 500, Y: 300}, {X: 1150, Y: 340}, {X: 460, Y: 1300}, {X: 1200, Y: 1250}}

// CardPhotoLines are the card's printed lines, top to bottom.
var CardPhotoLines = []string{"ПАСПОРТ ГРАЖДАНИНА", "Место рождения Екатеринбург", "Дата выдачи 12.05.2019",
	"Иванова Мария Петровна"}

// CardPhotoNote is written on the page beside the card, its baseline
// starting at (80, 120).
const CardPhotoNote = "Копия верна подпись заверяю"

// CardPhoto draws with ImageMagick a white 900 x 560 card printed with
// CardPhotoLines, lying on its side at a slant (CardPhotoQuad) on an
// 1800 x 1400 page of colour bg with CardPhotoNote beside it, as a photo
// of a card on a table, and writes it to dir/name (the extension chooses
// the format; JPEG at quality 92).
func CardPhoto(t testing.TB, dir, name, bg string) {
	t.Helper()
	Need(t, "convert")
	card := []string{"-size", "900x560", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "30", "-fill", "black"}
	for i, l := range CardPhotoLines {
		card = append(card, "-annotate", fmt.Sprintf("+50+%d", 90+i*120), l)
	}
	Run(t, dir, "convert", append(card, "-rotate", "90", "card.png")...)
	q := CardPhotoQuad
	persp := fmt.Sprintf("0,0 %g,%g 560,0 %g,%g 0,900 %g,%g 560,900 %g,%g",
		q[0].X, q[0].Y, q[1].X, q[1].Y, q[2].X, q[2].Y, q[3].X, q[3].Y)
	Run(t, dir, "convert", "-size", "1800x1400", "xc:"+bg, "-font", "DejaVu-Sans", "-pointsize", "34",
		"-fill", "black", "-annotate", "+80+120", CardPhotoNote,
		"(", "card.png", "-virtual-pixel", "transparent", "+distort", "Perspective", persp, ")",
		"-layers", "flatten", "-quality", "92", name)
}
