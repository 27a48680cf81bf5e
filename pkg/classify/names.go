package classify

import "strings"

// givenNames are common Russian first names, folded (see Fold). They are
// not the factory's names (those are few on purpose, so that the models
// learn where names stand, not which): a real document's holder is seldom
// one of them, and a word that reads as a first name, or that ends like a
// patronymic, is a sign the crop was read the right way up (Familiar).
var givenNames = func() map[string]bool {
	const list = `АЛЕКСАНДР АЛЕКСЕЙ АНАТОЛИЙ АНДРЕЙ АНТОН АРКАДИЙ АРСЕНИЙ АРТЕМ АРТУР БОГДАН БОРИС ВАДИМ ВАЛЕНТИН
ВАЛЕРИЙ ВАСИЛИЙ ВИКТОР ВИТАЛИЙ ВЛАДИМИР ВЛАДИСЛАВ ВЯЧЕСЛАВ ГЕННАДИЙ ГЕОРГИЙ ГЛЕБ ГРИГОРИЙ ДАНИИЛ ДАНИЛА
ДЕНИС ДМИТРИЙ ЕВГЕНИЙ ЕГОР ЗАХАР ИВАН ИГОРЬ ИЛЬЯ КИРИЛЛ КОНСТАНТИН ЛЕВ ЛЕОНИД МАКСИМ МАРК МАТВЕЙ МИХАИЛ
НИКИТА НИКОЛАЙ ОЛЕГ ПАВЕЛ ПЕТР РОМАН РУСЛАН СЕМЕН СЕРГЕЙ СТАНИСЛАВ СТЕПАН ТИМОФЕЙ ТИМУР ФЕДОР ФИЛИПП ЭДУАРД
ЮРИЙ ЯКОВ ЯРОСЛАВ АЛЕКСАНДРА АЛЕНА АЛИНА АЛЛА АНАСТАСИЯ АНГЕЛИНА АННА АНТОНИНА ВАЛЕНТИНА ВАЛЕРИЯ ВАРВАРА
ВЕРА ВЕРОНИКА ВИКТОРИЯ ГАЛИНА ДАРЬЯ ДИАНА ЕВГЕНИЯ ЕКАТЕРИНА ЕЛЕНА ЕЛИЗАВЕТА ЖАННА ЗИНАИДА ЗОЯ ИННА ИРИНА
КАРИНА КРИСТИНА КСЕНИЯ ЛАРИСА ЛИДИЯ ЛЮБОВЬ ЛЮДМИЛА МАРГАРИТА МАРИНА МАРИЯ НАДЕЖДА НАТАЛЬЯ НИНА ОКСАНА
ОЛЬГА ПОЛИНА РАИСА СВЕТЛАНА СОФИЯ ТАИСИЯ ТАМАРА ТАТЬЯНА УЛЬЯНА ЮЛИЯ ЯНА`
	m := map[string]bool{}
	for _, n := range strings.Fields(list) {
		m[n] = true
	}
	return m
}()

// patronymicEndings are how Russian patronymics end, folded.
var patronymicEndings = []string{"ОВИЧ", "ЕВИЧ", "ОВНА", "ЕВНА", "ИЧНА"}

// nameLike reports whether a folded word is a common first name or, from
// seven letters, ends like a patronymic.
func nameLike(w string) bool {
	if givenNames[w] {
		return true
	}
	if len([]rune(w)) < 7 {
		return false
	}
	for _, e := range patronymicEndings {
		if strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}
