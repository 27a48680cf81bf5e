package synth

import "strings"

// fillerWords are words per language for paragraphs of body text. They
// only have to look like the language.
var fillerWords = map[string][]string{
	"ru": strings.Fields("настоящим удостоверяется что гражданин зарегистрирован по месту жительства в соответствии с законом о порядке выдачи документа организация договор оплата сумма срок согласно приказу подпись печать дата номер год сведения о доходах физического лица налоговый агент код региона выдан отделом управления федеральной службы"),
	"en": strings.Fields("this document certifies that the holder is registered at the address shown below payment due invoice total amount tax receipt number date signature account reference please keep for your records the terms and conditions apply customer service order"),
	"de": strings.Fields("hiermit wird bestätigt dass der inhaber rechnung betrag datum unterschrift kunde bestellung steuer summe zahlung konto bitte aufbewahren vielen dank für ihren einkauf"),
	"fr": strings.Fields("nous certifions que le titulaire facture montant date signature client commande taxe total paiement compte merci de conserver ce document pour vos dossiers"),
	"kz": strings.Fields("осы куәлік азаматтың жеке басын растайды қазақстан республикасы берілген күні мерзімі ішкі істер министрлігі тіркелген мекенжайы"),
	"uz": strings.Fields("ushbu hujjat fuqaroning shaxsini tasdiqlaydi oʻzbekiston respublikasi berilgan sana amal qilish muddati ichki ishlar vazirligi"),
}

// filler returns n pseudo-sentence words in language lang.
func filler(r *Rand, lang string, n int) string {
	ws, ok := fillerWords[lang]
	if !ok {
		ws = fillerWords["ru"]
	}
	out := make([]string, n)
	for i := range out {
		out[i] = Pick(r, ws)
	}
	s := strings.Join(out, " ")
	if s != "" {
		rs := []rune(s)
		rs[0] = []rune(strings.ToUpper(string(rs[0])))[0]
		s = string(rs)
	}
	return s
}
