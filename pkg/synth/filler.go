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
	"tr": strings.Fields("bu belge sahibinin kimliğini doğrular türkiye cumhuriyeti veriliş tarihi geçerlilik süresi adres fatura tutar imza müşteri sipariş ödeme hesap numarası"),
	"hy": strings.Fields("սույն փաստաթուղթը հավաստում է որ քաղաքացին գրանցված է հասցե ամսաթիվ ստորագրություն վճարում գումար համար պայմանագիր կազմակերպություն"),
	"ka": strings.Fields("ეს დოკუმენტი ადასტურებს რომ მოქალაქე რეგისტრირებულია მისამართი თარიღი ხელმოწერა გადახდა თანხა ნომერი ორგანიზაცია"),
	"ar": strings.Fields("هذه الوثيقة تشهد بأن حاملها مسجل في العنوان التاريخ التوقيع المبلغ رقم الحساب الدفع العميل الطلب الضريبة"),
	"hi": strings.Fields("यह प्रमाणित किया जाता है कि धारक पता दिनांक हस्ताक्षर राशि खाता संख्या भुगतान ग्राहक आदेश कर विवरण"),
	"bn": strings.Fields("এই নথি প্রত্যয়ন করে যে ধারক ঠিকানা তারিখ স্বাক্ষর পরিমাণ হিসাব নম্বর অর্থ প্রদান গ্রাহক আদেশ কর"),
	"zh": strings.Fields("証明 住所 氏名 生年月日 発行 日付 署名 金額 番号 会社 契約 支払 顧客 注文 税 有効期限 登録"),
	"el": strings.Fields("το παρόν πιστοποιεί ότι ο κάτοχος διεύθυνση ημερομηνία υπογραφή ποσό λογαριασμός αριθμός πληρωμή πελάτης παραγγελία φόρος"),
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
