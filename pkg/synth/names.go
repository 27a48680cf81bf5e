package synth

// localeNames are the name and place lists of one locale. An entry
// "native|LATIN" gives its own Latin form; others are transliterated.
type localeNames struct {
	surM, surF, givM, givF, patM, patF, places []string
}

// names holds the lists per locale. The lists are short on purpose: the
// models must not learn names, only where names stand.
var names = map[string]localeNames{
	"ru": {
		surM:   []string{"Иванов", "Смирнов", "Кузнецов", "Попов", "Васильев", "Петров", "Соколов", "Михайлов", "Новиков", "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев", "Семёнов", "Егоров", "Павлов", "Козлов", "Степанов", "Николаев", "Орлов", "Андреев", "Макаров", "Никитин", "Захаров", "Зайцев", "Соловьёв", "Борисов", "Яковлев", "Григорьев", "Щербаков", "Чернышёв", "Журавлёв", "Ефимов", "Юдин", "Хохлов"},
		surF:   []string{"Иванова", "Смирнова", "Кузнецова", "Попова", "Васильева", "Петрова", "Соколова", "Михайлова", "Новикова", "Фёдорова", "Морозова", "Волкова", "Алексеева", "Лебедева", "Семёнова", "Егорова", "Павлова", "Козлова", "Щербакова", "Журавлёва", "Юдина"},
		givM:   []string{"Александр", "Сергей", "Дмитрий", "Андрей", "Алексей", "Максим", "Евгений", "Иван", "Михаил", "Артём", "Николай", "Владимир", "Юрий", "Олег", "Игорь", "Павел", "Роман", "Виктор", "Константин", "Григорий", "Эдуард", "Ярослав"},
		givF:   []string{"Елена", "Ольга", "Наталья", "Татьяна", "Ирина", "Светлана", "Анна", "Мария", "Юлия", "Екатерина", "Анастасия", "Людмила", "Ксения", "Дарья", "Валентина", "Жанна", "Эльвира"},
		patM:   []string{"Иванович", "Александрович", "Сергеевич", "Дмитриевич", "Андреевич", "Алексеевич", "Владимирович", "Николаевич", "Игоревич", "Юрьевич", "Викторович", "Михайлович", "Петрович", "Григорьевич"},
		patF:   []string{"Ивановна", "Александровна", "Сергеевна", "Дмитриевна", "Андреевна", "Алексеевна", "Владимировна", "Николаевна", "Игоревна", "Юрьевна", "Викторовна", "Михайловна", "Петровна"},
		places: []string{"гор. Москва", "гор. Санкт-Петербург", "гор. Новосибирск", "гор. Екатеринбург", "гор. Казань", "гор. Нижний Новгород", "гор. Челябинск", "гор. Самара", "гор. Омск", "гор. Ростов-на-Дону", "гор. Уфа", "гор. Красноярск", "гор. Воронеж", "гор. Пермь", "гор. Волгоград", "гор. Архангельск", "пос. Луговой Тюменской обл.", "с. Никольское Калужской обл.", "гор. Тверь", "гор. Хабаровск"},
	},
	"kz": {
		surM:   []string{"Ахметов", "Омаров", "Сейтқали", "Жұмабаев", "Нұрланов", "Ермеков", "Тоқтаров", "Қасымов", "Әбенов", "Серіков", "Бекмұхамбетов"},
		surF:   []string{"Ахметова", "Омарова", "Жұмабаева", "Нұрланова", "Ермекова", "Қасымова", "Серікова"},
		givM:   []string{"Нұрсұлтан", "Асхат", "Ерлан", "Дәурен", "Бауыржан", "Айдос", "Ғалым", "Серік", "Мұрат", "Арман"},
		givF:   []string{"Айгерім", "Әсел", "Гүлнар", "Жанар", "Дана", "Мөлдір", "Сәуле", "Ақбота"},
		patM:   []string{"Серікұлы", "Ерланұлы", "Мұратович", "Асхатович", "Бауыржанұлы"},
		patF:   []string{"Серікқызы", "Ерланқызы", "Мұратовна", "Асхатовна"},
		places: []string{"АЛМАТЫ", "АСТАНА", "ШЫМКЕНТ", "ҚАРАҒАНДЫ", "АҚТӨБЕ", "ТАРАЗ", "ПАВЛОДАР", "ӨСКЕМЕН"},
	},
	"kg": {
		surM:   []string{"Асанов", "Токтогулов", "Жээнбеков", "Мамытов", "Осмонов", "Бакиев", "Үсөнов", "Абдыкалыков"},
		surF:   []string{"Асанова", "Токтогулова", "Мамытова", "Осмонова", "Үсөнова"},
		givM:   []string{"Азамат", "Бакыт", "Нурлан", "Эрлан", "Темирлан", "Улан", "Чыңгыз", "Айбек"},
		givF:   []string{"Айгүл", "Жыпар", "Гүлзат", "Назира", "Чолпон", "Бермет"},
		patM:   []string{"Бакытович", "Асанович", "Нурланович", "Асан уулу", "Токтогул уулу"},
		patF:   []string{"Бакытовна", "Асановна", "Асан кызы", "Нурлан кызы"},
		places: []string{"БИШКЕК", "ОШ", "ЖАЛАЛ-АБАД", "КАРАКОЛ", "ТОКМОК", "НАРЫН", "ТАЛАС"},
	},
	"uz": {
		surM:   []string{"Karimov|KARIMOV", "Rahimov|RAHIMOV", "Toshmatov|TOSHMATOV", "Yusupov|YUSUPOV", "Abdullayev|ABDULLAYEV", "Xolmatov|XOLMATOV", "Saidov|SAIDOV"},
		surF:   []string{"Karimova|KARIMOVA", "Rahimova|RAHIMOVA", "Yusupova|YUSUPOVA", "Saidova|SAIDOVA"},
		givM:   []string{"Bobur|BOBUR", "Jasur|JASUR", "Sherzod|SHERZOD", "Otabek|OTABEK", "Dilshod|DILSHOD", "Rustam|RUSTAM", "Oʻtkir|OTKIR"},
		givF:   []string{"Dilnoza|DILNOZA", "Gulnora|GULNORA", "Malika|MALIKA", "Nodira|NODIRA", "Shahnoza|SHAHNOZA"},
		patM:   []string{"Anvar oʻgʻli|ANVAR OGLI", "Rustamovich|RUSTAMOVICH", "Akmal oʻgʻli|AKMAL OGLI"},
		patF:   []string{"Anvar qizi|ANVAR QIZI", "Rustamovna|RUSTAMOVNA"},
		places: []string{"TOSHKENT", "SAMARQAND", "BUXORO", "ANDIJON", "NAMANGAN", "FARGʻONA", "QARSHI", "NUKUS"},
	},
	"tj": {
		surM:   []string{"Раҳимов", "Саидов", "Назаров", "Шарипов", "Ҷӯраев", "Ҳасанов", "Қодиров"},
		surF:   []string{"Раҳимова", "Саидова", "Назарова", "Шарипова", "Ҳасанова"},
		givM:   []string{"Фирдавс", "Ҷамшед", "Умед", "Сӯҳроб", "Фаррух", "Баҳодур", "Шоҳрух"},
		givF:   []string{"Мадина", "Нигина", "Зарина", "Гулнора", "Шаҳноза", "Меҳрона"},
		patM:   []string{"Раҳимович", "Саидович", "Назарович"},
		patF:   []string{"Раҳимовна", "Саидовна", "Назаровна"},
		places: []string{"ДУШАНБЕ", "ХУҶАНД", "КӮЛОБ", "БОХТАР", "ИСТАРАВШАН", "ПАНҶАКЕНТ"},
	},
	"az": {
		surM:   []string{"Məmmədov", "Əliyev", "Hüseynov", "Həsənov", "Quliyev", "İsmayılov", "Rzayev", "Cəfərov"},
		surF:   []string{"Məmmədova", "Əliyeva", "Hüseynova", "Həsənova", "Quliyeva", "Cəfərova"},
		givM:   []string{"Elvin", "Rəşad", "Tural", "Orxan", "Kamran", "Nicat", "Elçin", "Fərid"},
		givF:   []string{"Aynur", "Günel", "Leyla", "Nərmin", "Sevinc", "Aysel", "Ülviyyə"},
		patM:   []string{"Əli oğlu", "Rəşad oğlu", "Vaqif oğlu"},
		patF:   []string{"Əli qızı", "Vaqif qızı", "Rəşad qızı"},
		places: []string{"BAKI", "GƏNCƏ", "SUMQAYIT", "MİNGƏÇEVİR", "ŞƏKİ", "LƏNKƏRAN", "NAXÇIVAN"},
	},
	"am": {
		surM:   []string{"Հովհաննիսյան|HOVHANNISYAN", "Սարգսյան|SARGSYAN", "Պետրոսյան|PETROSYAN", "Գրիգորյան|GRIGORYAN", "Հարությունյան|HARUTYUNYAN", "Կարապետյան|KARAPETYAN", "Խաչատրյան|KHACHATRYAN"},
		surF:   []string{"Հովհաննիսյան|HOVHANNISYAN", "Սարգսյան|SARGSYAN", "Մկրտչյան|MKRTCHYAN", "Ավետիսյան|AVETISYAN"},
		givM:   []string{"Արամ|ARAM", "Տիգրան|TIGRAN", "Դավիթ|DAVIT", "Հայկ|HAYK", "Նարեկ|NAREK", "Արմեն|ARMEN", "Գևորգ|GEVORG"},
		givF:   []string{"Անի|ANI", "Մարիամ|MARIAM", "Լիլիթ|LILIT", "Նարինե|NARINE", "Անահիտ|ANAHIT", "Գայանե|GAYANE"},
		patM:   []string{"Արամի|ARAMI", "Տիգրանի|TIGRANI"},
		patF:   []string{"Արամի|ARAMI", "Դավթի|DAVTI"},
		places: []string{"ԵՐԵՎԱՆ|YEREVAN", "ԳՅՈՒՄՐԻ|GYUMRI", "ՎԱՆԱՁՈՐ|VANADZOR", "ԱՐՄԱՎԻՐ|ARMAVIR", "ԿԱՊԱՆ|KAPAN"},
	},
	"ua": {
		surM:   []string{"Шевченко", "Коваленко", "Бондаренко", "Ткаченко", "Кравченко", "Мельник", "Олійник", "Петренко", "Гончаренко", "Литвиненко"},
		surF:   []string{"Шевченко", "Коваленко", "Бондаренко", "Мельник", "Олійник", "Ковальчук", "Савчук"},
		givM:   []string{"Олександр", "Андрій", "Сергій", "Дмитро", "Іван", "Микола", "Юрій", "Василь", "Тарас", "Богдан"},
		givF:   []string{"Олена", "Наталія", "Оксана", "Ірина", "Тетяна", "Юлія", "Галина", "Ганна", "Людмила"},
		patM:   []string{"Олександрович", "Іванович", "Миколайович", "Петрович", "Васильович"},
		patF:   []string{"Олександрівна", "Іванівна", "Миколаївна", "Петрівна", "Василівна"},
		places: []string{"М. КИЇВ", "М. ХАРКІВ", "М. ОДЕСА", "М. ДНІПРО", "М. ЛЬВІВ", "М. ЗАПОРІЖЖЯ", "М. ВІННИЦЯ", "М. ПОЛТАВА"},
	},
	"by": {
		surM:   []string{"Козлов", "Ковалёв", "Новик", "Мельников", "Шевчук", "Лукашевич", "Романович", "Жук"},
		surF:   []string{"Козлова", "Ковалёва", "Новик", "Мельникова", "Романович", "Жук"},
		givM:   []string{"Андрей", "Сергей", "Дмитрий", "Павел", "Виталий", "Алесь", "Максим"},
		givF:   []string{"Анастасия", "Ольга", "Ирина", "Татьяна", "Наталья", "Алеся", "Вольга"},
		patM:   []string{"Андреевич", "Сергеевич", "Павлович", "Иванович"},
		patF:   []string{"Андреевна", "Сергеевна", "Павловна", "Ивановна"},
		places: []string{"Г. МИНСК", "Г. ГОМЕЛЬ", "Г. МОГИЛЁВ", "Г. ВИТЕБСК", "Г. ГРОДНО", "Г. БРЕСТ"},
	},
	"md": {
		surM:   []string{"Rusu", "Ceban", "Ciobanu", "Munteanu", "Lungu", "Cojocaru", "Țurcan", "Popa"},
		surF:   []string{"Rusu", "Ceban", "Ciobanu", "Munteanu", "Lungu", "Cojocaru", "Popa"},
		givM:   []string{"Ion", "Vasile", "Andrei", "Mihai", "Victor", "Sergiu", "Dumitru"},
		givF:   []string{"Maria", "Elena", "Ana", "Natalia", "Olga", "Cristina", "Doina"},
		places: []string{"CHIȘINĂU", "BĂLȚI", "CAHUL", "ORHEI", "UNGHENI", "SOROCA"},
	},
	"tr": {
		surM:   []string{"Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Yıldız", "Yıldırım", "Öztürk", "Aydın", "Özdemir", "Arslan", "Doğan"},
		surF:   []string{"Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Yıldız", "Öztürk", "Aydın"},
		givM:   []string{"Mehmet", "Mustafa", "Ahmet", "Ali", "Hüseyin", "Hasan", "İbrahim", "Emre", "Burak", "Murat"},
		givF:   []string{"Fatma", "Ayşe", "Emine", "Hatice", "Zeynep", "Elif", "Merve", "Büşra"},
		places: []string{"İSTANBUL", "ANKARA", "İZMİR", "BURSA", "ANTALYA", "KONYA", "ADANA", "TRABZON"},
	},
	"in": {
		surM:   []string{"Sharma", "Verma", "Gupta", "Singh", "Kumar", "Patel", "Reddy", "Nair", "Iyer", "Das"},
		surF:   []string{"Sharma", "Verma", "Gupta", "Singh", "Kumari", "Patel", "Reddy", "Nair"},
		givM:   []string{"Rahul", "Amit", "Vikram", "Suresh", "Rajesh", "Arjun", "Sanjay", "Anil"},
		givF:   []string{"Priya", "Anita", "Sunita", "Kavita", "Pooja", "Neha", "Lakshmi", "Deepa"},
		places: []string{"NEW DELHI", "MUMBAI", "KOLKATA", "CHENNAI", "BENGALURU", "HYDERABAD", "JAIPUR", "LUCKNOW"},
	},
	"pk": {
		surM:   []string{"Khan", "Ahmed", "Ali", "Hussain", "Malik", "Qureshi", "Sheikh", "Butt"},
		surF:   []string{"Khan", "Ahmed", "Bibi", "Malik", "Qureshi", "Sheikh"},
		givM:   []string{"Muhammad", "Imran", "Bilal", "Usman", "Hamza", "Faisal", "Asif", "Kashif"},
		givF:   []string{"Ayesha", "Fatima", "Sana", "Hina", "Sadia", "Nadia", "Rabia"},
		places: []string{"LAHORE", "KARACHI", "ISLAMABAD", "RAWALPINDI", "FAISALABAD", "MULTAN", "PESHAWAR"},
	},
	"np": {
		surM:   []string{"Shrestha", "Tamang", "Gurung", "Thapa", "Rai", "Magar", "Adhikari", "Karki"},
		surF:   []string{"Shrestha", "Tamang", "Gurung", "Thapa", "Rai", "Adhikari"},
		givM:   []string{"Ram", "Hari", "Krishna", "Bikash", "Suman", "Prakash", "Dipak"},
		givF:   []string{"Sita", "Gita", "Sunita", "Puja", "Anjali", "Sabina", "Laxmi"},
		places: []string{"KATHMANDU", "POKHARA", "LALITPUR", "BIRATNAGAR", "BHARATPUR", "DHARAN"},
	},
	"bd": {
		surM:   []string{"Rahman", "Hossain", "Islam", "Uddin", "Ahmed", "Chowdhury", "Sarkar", "Miah"},
		surF:   []string{"Begum", "Khatun", "Akter", "Rahman", "Islam", "Sultana"},
		givM:   []string{"Abdul", "Mohammad", "Rafiq", "Kamal", "Jamal", "Shafiq", "Tanvir"},
		givF:   []string{"Nasrin", "Shirin", "Farzana", "Rokeya", "Taslima", "Jesmin"},
		places: []string{"DHAKA", "CHATTOGRAM", "KHULNA", "RAJSHAHI", "SYLHET", "BARISHAL", "COMILLA"},
	},
	"jp": {
		surM:   []string{"佐藤|SATO", "鈴木|SUZUKI", "高橋|TAKAHASHI", "田中|TANAKA", "伊藤|ITO", "渡辺|WATANABE", "山本|YAMAMOTO", "中村|NAKAMURA"},
		surF:   []string{"佐藤|SATO", "鈴木|SUZUKI", "高橋|TAKAHASHI", "田中|TANAKA", "小林|KOBAYASHI", "加藤|KATO"},
		givM:   []string{"太郎|TARO", "翔|SHO", "大輔|DAISUKE", "健|KEN", "誠|MAKOTO", "拓也|TAKUYA"},
		givF:   []string{"花子|HANAKO", "陽子|YOKO", "美咲|MISAKI", "愛|AI", "恵|MEGUMI", "由美|YUMI"},
		places: []string{"東京都千代田区霞が関2-1-2", "大阪府大阪市北区梅田1-3-1", "愛知県名古屋市中区三の丸3-1-1", "神奈川県横浜市中区日本大通1", "福岡県福岡市博多区東公園7-7", "北海道札幌市中央区北3条西6"},
	},
	"en": {
		surM:   []string{"Smith", "Müller", "García", "Rossi", "Dubois", "Novak", "Kowalski", "Johansson", "Jansen", "Silva", "Papadopoulos", "Horvat"},
		surF:   []string{"Smith", "Müller", "García", "Rossi", "Dubois", "Nováková", "Kowalska", "Johansson", "Jansen", "Silva"},
		givM:   []string{"John", "Lukas", "Carlos", "Marco", "Pierre", "Jan", "Piotr", "Erik", "Daan", "João"},
		givF:   []string{"Anna", "Sophie", "María", "Giulia", "Camille", "Eva", "Zofia", "Emma", "Inês"},
		places: []string{"BERLIN", "MADRID", "ROMA", "PARIS", "PRAHA", "WARSZAWA", "STOCKHOLM", "LISBOA", "AMSTERDAM", "WIEN"},
	},
}
