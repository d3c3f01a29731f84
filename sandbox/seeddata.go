package sandbox

// Static tables the seed generator draws from. They are read-only.

import "strings"

type personName struct {
	display string // as shown
	ascii   string // for e-mail addresses and URLs
}

type city struct {
	name     string
	lat, lon float64
}

type country struct {
	code      string
	name      string
	locale    string
	language  string
	phoneCode string
	first     []personName
	last      []personName
	cities    []city
	streets   []string
	weight    int
}

func pn(s string) personName { return personName{display: s, ascii: asciiFold(s)} }

func pns(ss ...string) []personName {
	out := make([]personName, len(ss))
	for i, s := range ss {
		out[i] = pn(s)
	}
	return out
}

// foldings are the plain ASCII of the Latin letters with diacritics the seed's names use;
// spaces and apostrophes are dropped.
var foldings = strings.NewReplacer(
	"ä", "ae", "Ä", "ae", "ö", "oe", "Ö", "oe", "ü", "ue", "Ü", "ue", "ß", "ss",
	"é", "e", "è", "e", "ê", "e", "ë", "e", "É", "e", "ę", "e",
	"á", "a", "à", "a", "â", "a", "ã", "a", "å", "a", "Á", "a", "Å", "a", "ą", "a",
	"í", "i", "ì", "i", "î", "i", "ï", "i",
	"ó", "o", "ò", "o", "ô", "o", "õ", "o", "ø", "o", "Ø", "o",
	"ú", "u", "ù", "u", "û", "u",
	"ç", "c", "ć", "c", "ñ", "n", "ń", "n", "ł", "l", "Ł", "l", "ś", "s", "Ś", "s", "ż", "z", "ź", "z", "Ż", "z",
	" ", "", "'", "",
)

// asciiFold turns common Latin letters with diacritics into plain ASCII, lower-cased; other
// letters beyond ASCII are dropped.
func asciiFold(s string) string {
	var b []rune
	for _, r := range foldings.Replace(s) {
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		if r < 128 {
			b = append(b, r)
		}
	}
	return string(b)
}

var countries = []country{
	{
		code: "DE", name: "Germany", locale: "de_DE", language: "German", phoneCode: "+49", weight: 22,
		first:   pns("Anna", "Lukas", "Marie", "Jonas", "Lea", "Felix", "Sophie", "Paul", "Hannah", "Maximilian", "Katrin", "Jürgen", "Sabine", "Tobias"),
		last:    pns("Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Hoffmann", "Schäfer", "Koch", "Richter"),
		cities:  []city{{"Berlin", 52.52, 13.405}, {"Hamburg", 53.5511, 9.9937}, {"München", 48.1351, 11.582}, {"Köln", 50.9375, 6.9603}, {"Leipzig", 51.3397, 12.3731}, {"Freiburg", 47.999, 7.8421}},
		streets: []string{"Hauptstraße", "Bahnhofstraße", "Gartenweg", "Schillerstraße", "Lindenallee", "Kastanienweg", "Goethestraße"},
	},
	{
		code: "AT", name: "Austria", locale: "de_AT", language: "German", phoneCode: "+43", weight: 5,
		first:   pns("Lena", "Florian", "Johanna", "David", "Valentina", "Elias"),
		last:    pns("Gruber", "Huber", "Bauer", "Pichler", "Moser", "Steiner"),
		cities:  []city{{"Wien", 48.2082, 16.3738}, {"Graz", 47.0707, 15.4395}, {"Salzburg", 47.8095, 13.055}, {"Innsbruck", 47.2692, 11.4041}},
		streets: []string{"Mariahilfer Straße", "Getreidegasse", "Herrengasse", "Landstraßer Hauptstraße"},
	},
	{
		code: "US", name: "United States", locale: "en_US", language: "English", phoneCode: "+1", weight: 18,
		first:   pns("Emma", "Liam", "Olivia", "Noah", "Ava", "James", "Sophia", "William", "Mia", "Benjamin", "Harper", "Ethan", "Madison", "Jacob"),
		last:    pns("Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson", "Taylor", "Thomas", "Moore"),
		cities:  []city{{"Austin", 30.2672, -97.7431}, {"Seattle", 47.6062, -122.3321}, {"Boston", 42.3601, -71.0589}, {"Chicago", 41.8781, -87.6298}, {"Denver", 39.7392, -104.9903}, {"Portland", 45.5152, -122.6784}},
		streets: []string{"Main Street", "Oak Avenue", "Maple Drive", "Pine Street", "Cedar Lane", "Washington Boulevard", "Elm Court"},
	},
	{
		code: "GB", name: "United Kingdom", locale: "en_GB", language: "English", phoneCode: "+44", weight: 10,
		first:   pns("Oliver", "Amelia", "George", "Isla", "Harry", "Poppy", "Charlie", "Freya", "Alfie", "Evie"),
		last:    pns("Taylor", "Evans", "Walker", "Wright", "Roberts", "Hughes", "Green", "Hall", "Wood", "Clarke"),
		cities:  []city{{"London", 51.5074, -0.1278}, {"Manchester", 53.4808, -2.2426}, {"Bristol", 51.4545, -2.5879}, {"Edinburgh", 55.9533, -3.1883}, {"Leeds", 53.8008, -1.5491}},
		streets: []string{"High Street", "Station Road", "Church Lane", "Victoria Road", "Park Avenue", "Mill Lane"},
	},
	{
		code: "FR", name: "France", locale: "fr_FR", language: "French", phoneCode: "+33", weight: 8,
		first:   pns("Camille", "Louis", "Chloé", "Hugo", "Léa", "Gabriel", "Manon", "Arthur", "Inès", "Jules"),
		last:    pns("Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau"),
		cities:  []city{{"Paris", 48.8566, 2.3522}, {"Lyon", 45.764, 4.8357}, {"Marseille", 43.2965, 5.3698}, {"Bordeaux", 44.8378, -0.5792}, {"Nantes", 47.2184, -1.5536}},
		streets: []string{"Rue de la Paix", "Avenue Victor Hugo", "Rue du Commerce", "Boulevard Saint-Michel", "Rue des Lilas"},
	},
	{
		code: "ES", name: "Spain", locale: "es_ES", language: "Spanish", phoneCode: "+34", weight: 6,
		first:   pns("Lucía", "Hugo", "Martina", "Pablo", "Sofía", "Daniel", "Paula", "Alejandro", "Carmen", "Javier"),
		last:    pns("García", "Fernández", "González", "Rodríguez", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Ruiz"),
		cities:  []city{{"Madrid", 40.4168, -3.7038}, {"Barcelona", 41.3851, 2.1734}, {"Valencia", 39.4699, -0.3763}, {"Sevilla", 37.3891, -5.9845}},
		streets: []string{"Calle Mayor", "Gran Vía", "Calle de Alcalá", "Paseo de Gracia", "Avenida de la Constitución"},
	},
	{
		code: "IT", name: "Italy", locale: "it_IT", language: "Italian", phoneCode: "+39", weight: 5,
		first:   pns("Giulia", "Francesco", "Chiara", "Alessandro", "Sara", "Lorenzo", "Martina", "Matteo"),
		last:    pns("Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci"),
		cities:  []city{{"Milano", 45.4642, 9.19}, {"Roma", 41.9028, 12.4964}, {"Torino", 45.0703, 7.6869}, {"Bologna", 44.4949, 11.3426}},
		streets: []string{"Via Roma", "Corso Italia", "Via Garibaldi", "Via Dante", "Piazza del Popolo"},
	},
	{
		code: "NL", name: "Netherlands", locale: "nl_NL", language: "Dutch", phoneCode: "+31", weight: 5,
		first:   pns("Sanne", "Daan", "Emma", "Bram", "Fleur", "Lars", "Noor", "Thijs"),
		last:    pns("de Jong", "Jansen", "de Vries", "van den Berg", "Bakker", "Visser", "Smit", "Meijer"),
		cities:  []city{{"Amsterdam", 52.3676, 4.9041}, {"Rotterdam", 51.9244, 4.4777}, {"Utrecht", 52.0907, 5.1214}, {"Eindhoven", 51.4416, 5.4697}},
		streets: []string{"Prinsengracht", "Kerkstraat", "Dorpsstraat", "Molenweg", "Stationsplein"},
	},
	{
		code: "SE", name: "Sweden", locale: "sv_SE", language: "Swedish", phoneCode: "+46", weight: 3,
		first:   pns("Elsa", "Oskar", "Maja", "Hugo", "Alva", "Viktor"),
		last:    pns("Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Lindqvist"),
		cities:  []city{{"Stockholm", 59.3293, 18.0686}, {"Göteborg", 57.7089, 11.9746}, {"Malmö", 55.605, 13.0038}},
		streets: []string{"Drottninggatan", "Storgatan", "Kungsgatan", "Sveavägen"},
	},
	{
		code: "PL", name: "Poland", locale: "pl_PL", language: "Polish", phoneCode: "+48", weight: 4,
		first:   pns("Zofia", "Jakub", "Zuzanna", "Kacper", "Julia", "Mateusz"),
		last:    pns("Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kamiński", "Lewandowski"),
		cities:  []city{{"Warszawa", 52.2297, 21.0122}, {"Kraków", 50.0647, 19.945}, {"Gdańsk", 54.352, 18.6466}, {"Wrocław", 51.1079, 17.0385}},
		streets: []string{"ulica Marszałkowska", "ulica Floriańska", "ulica Długa", "aleje Jerozolimskie"},
	},
	{
		code: "JP", name: "Japan", locale: "ja_JP", language: "Japanese", phoneCode: "+81", weight: 3,
		first:   []personName{{"由紀", "yuki"}, {"翔", "sho"}, {"美咲", "misaki"}, {"健太", "kenta"}, {"さくら", "sakura"}},
		last:    []personName{{"田中", "tanaka"}, {"佐藤", "sato"}, {"鈴木", "suzuki"}, {"高橋", "takahashi"}, {"渡辺", "watanabe"}},
		cities:  []city{{"東京", 35.6762, 139.6503}, {"大阪", 34.6937, 135.5023}, {"京都", 35.0116, 135.7681}},
		streets: []string{"銀座 4-5-6", "中央通り 2-1", "本町 3-12"},
	},
	{
		code: "CN", name: "China", locale: "zh_CN", language: "Chinese", phoneCode: "+86", weight: 2,
		first:   []personName{{"芳", "fang"}, {"伟", "wei"}, {"静", "jing"}, {"磊", "lei"}},
		last:    []personName{{"王", "wang"}, {"李", "li"}, {"张", "zhang"}, {"刘", "liu"}},
		cities:  []city{{"上海", 31.2304, 121.4737}, {"北京", 39.9042, 116.4074}, {"深圳", 22.5431, 114.0579}},
		streets: []string{"南京东路 88号", "长安街 10号", "深南大道 6008号"},
	},
	{
		code: "AE", name: "United Arab Emirates", locale: "ar_AE", language: "Arabic", phoneCode: "+971", weight: 2,
		first:   []personName{{"ليلى", "layla"}, {"عمر", "omar"}, {"فاطمة", "fatima"}, {"يوسف", "youssef"}},
		last:    []personName{{"حسن", "hassan"}, {"العلي", "alali"}, {"منصور", "mansour"}, {"خليل", "khalil"}},
		cities:  []city{{"دبي", 25.2048, 55.2708}, {"أبو ظبي", 24.4539, 54.3773}},
		streets: []string{"شارع الشيخ زايد", "شارع الوصل"},
	},
	{
		code: "IL", name: "Israel", locale: "he_IL", language: "Hebrew", phoneCode: "+972", weight: 2,
		first:   []personName{{"נועה", "noa"}, {"איתי", "itai"}, {"תמר", "tamar"}, {"יונתן", "yonatan"}},
		last:    []personName{{"כהן", "cohen"}, {"לוי", "levi"}, {"מזרחי", "mizrahi"}, {"פרץ", "peretz"}},
		cities:  []city{{"תל אביב", 32.0853, 34.7818}, {"ירושלים", 31.7683, 35.2137}, {"חיפה", 32.794, 34.9896}},
		streets: []string{"רחוב דיזנגוף", "שדרות רוטשילד", "רחוב יפו"},
	},
	{
		code: "BR", name: "Brazil", locale: "pt_BR", language: "Portuguese", phoneCode: "+55", weight: 4,
		first:   pns("Ana", "João", "Beatriz", "Pedro", "Larissa", "Gustavo", "Camila", "Rafael"),
		last:    pns("Silva", "Santos", "Oliveira", "Souza", "Lima", "Pereira", "Costa", "Almeida"),
		cities:  []city{{"São Paulo", -23.5505, -46.6333}, {"Rio de Janeiro", -22.9068, -43.1729}, {"Curitiba", -25.4284, -49.2733}, {"Recife", -8.0476, -34.877}},
		streets: []string{"Rua Augusta", "Avenida Paulista", "Rua das Flores", "Avenida Atlântica"},
	},
}

var companies = []string{
	"Acme Logistics GmbH", "Nordlicht Design", "Pixelwerk Studios", "Sunrise Dental Care", "Helios Solar AG",
	"Kite & Key Travel", "Brightline Insurance", "Greenleaf Grocers", "Atlas Fitness Club", "Cobalt Robotics",
	"Maple & Stone Interiors", "Riverbend Books", "Urban Cycle Co.", "Lumen Optics", "Quartz Analytics",
	"Fjord Seafood AB", "Bäckerei Krume", "Studio Olivetti", "Tidewater Marine", "Alpenblick Hotels",
	"Copperleaf Consulting", "Nimbus Cloud Services", "Saffron Kitchen", "Ironbridge Legal", "Bluebird Daycare",
}

var positions = []string{
	"Office Manager", "Head of Marketing", "CTO", "Purchasing Manager", "Freelance Designer", "Operations Lead",
	"Store Manager", "Software Engineer", "Project Manager", "Managing Director", "Student", "Accountant",
	"HR Business Partner", "Sales Representative",
}

var companyDomains = []string{"gmail.com", "outlook.com", "web.de", "gmx.net", "yahoo.com", "icloud.com", "posteo.de", "proton.me", "mail.example.org"}

type browserSpec struct {
	name     string
	os       string
	versions []string
}

var browsers = []browserSpec{
	{"Chrome", "Windows 11", []string{"131.0.6778.86", "132.0.6834.110", "133.0.6943.54"}},
	{"Chrome", "macOS 14.6", []string{"131.0.6778.86", "133.0.6943.54"}},
	{"Safari", "macOS 15.1", []string{"18.1", "18.2"}},
	{"Safari", "iOS 18.1", []string{"18.1", "18.2"}},
	{"Firefox", "Ubuntu 24.04", []string{"133.0", "134.0"}},
	{"Firefox", "Windows 10", []string{"128.5.0esr", "134.0"}},
	{"Edge", "Windows 11", []string{"131.0.2903.86", "132.0.2957.127"}},
	{"Samsung Internet", "Android 14", []string{"26.0.3.1", "27.0.1.3"}},
	{"Chrome", "Android 15", []string{"131.0.6778.104", "133.0.6943.49"}},
}

var referrers = []string{
	"https://www.google.com/", "https://www.bing.com/", "https://duckduckgo.com/", "https://www.instagram.com/",
	"https://newsletter.example.com/november", "https://www.facebook.com/", "https://t.co/x7Ab3kQ",
}

// orgSpec describes one seeded organization.
type orgSpec struct {
	name     string
	domain   string
	product  string
	widgets  [][2]string // name, language
	topics   []string
	groups   []string
	humans   []personName
	botName  string
	pages    [][2]string // path, title
	goals    []string
	products []string
	share    int // percent of contacts and conversations
	customer int64
}

var orgSpecs = []orgSpec{
	{
		name: "Northwind Outfitters", domain: "northwind-outfitters.example", product: "outdoor gear",
		widgets: [][2]string{{"Webshop (English)", "English"}, {"Webshop (Deutsch)", "German"}, {"Help Center", "English"}},
		topics:  []string{"Shipping", "Returns", "Billing", "Product question", "Account", "Technical issue", "Feedback", "Sales lead"},
		groups:  []string{"Customer Care", "Sales", "Tech Support"},
		humans:  pns("Clara Hoffmann", "Ben Okafor", "Mira Jensen", "Tomás Rivera", "Aylin Demir", "Greta Lindholm"),
		botName: "Northy",
		pages: [][2]string{
			{"/", "Northwind Outfitters – Outdoor gear for every season"},
			{"/collections/tents", "Tents | Northwind Outfitters"},
			{"/collections/jackets", "Rain & shell jackets | Northwind Outfitters"},
			{"/products/trailblazer-2p-tent", "Trailblazer 2P Tent | Northwind Outfitters"},
			{"/products/alpine-down-jacket", "Alpine Down Jacket | Northwind Outfitters"},
			{"/cart", "Your cart | Northwind Outfitters"},
			{"/checkout", "Checkout | Northwind Outfitters"},
			{"/help/shipping", "Shipping & delivery | Help Center"},
			{"/help/returns", "Returns & refunds | Help Center"},
			{"/account/orders", "My orders | Northwind Outfitters"},
		},
		goals:    []string{"Checkout completed", "Newsletter signup", "Return label created"},
		products: []string{"Trailblazer 2P tent", "Alpine down jacket", "Summit 45L backpack", "Ridgeline trail shoes", "Storm shell jacket"},
		share:    65, customer: 48213,
	},
	{
		name: "Blue Harbor Coffee", domain: "blueharbor-coffee.example", product: "coffee subscriptions",
		widgets: [][2]string{{"Website", "English"}, {"Subscription portal", "English"}},
		topics:  []string{"Subscription", "Delivery", "Payment", "Wholesale", "Feedback"},
		groups:  []string{"Baristas", "Wholesale"},
		humans:  pns("Noah Whitfield", "Sofia Marquez", "Jun Park", "Elif Yilmaz"),
		botName: "Harbor Assistant",
		pages: [][2]string{
			{"/", "Blue Harbor Coffee – Freshly roasted, delivered"},
			{"/shop/espresso", "Espresso beans | Blue Harbor"},
			{"/shop/filter", "Filter coffee | Blue Harbor"},
			{"/subscription", "Coffee subscription | Blue Harbor"},
			{"/wholesale", "Wholesale for cafés | Blue Harbor"},
			{"/account/subscription", "Manage subscription | Blue Harbor"},
		},
		goals:    []string{"Subscription started", "Wholesale inquiry"},
		products: []string{"Harbor Blend 1 kg", "Ethiopia Yirgacheffe beans", "espresso subscription box", "ceramic pour-over set"},
		share:    35, customer: 48213,
	},
}

// Dialogue scenarios: alternating lines. "C:" lines come from the contact, "O:" from the
// operator. Placeholders: {order}, {product}, {first}, {op}, {city}, {amount}, {date}, {org}.
var scenarios = [][]string{
	{
		"C:Hi, I ordered the {product} last week and it still hasn't arrived. Order {order}.",
		"O:Hi {first}, thanks for reaching out! Let me check the status of order {order} for you.",
		"O:I can see the parcel left our warehouse on {date}. It is currently with the carrier in {city}.",
		"C:Okay, do you know when it will be delivered?",
		"O:The carrier estimates delivery within the next 2 business days. I'll send you the tracking link by email.",
		"C:Great, thank you so much!",
		"O:You're welcome! Is there anything else I can help you with?",
		"C:No, that's all. Have a nice day!",
	},
	{
		"C:Hello! I'd like to return the {product}, it's too small. How does that work?",
		"O:Hi {first}! Sorry it didn't fit. You can return it within 30 days free of charge.",
		"O:I've just created a return label for order {order}. You'll find it in your inbox in a few minutes.",
		"C:Perfect. Can I exchange it for a larger size instead?",
		"O:Of course. Just note the size you want on the return slip and we'll ship the exchange as soon as the parcel arrives.",
		"C:Thanks, that's really helpful.",
	},
	{
		"C:Hi, I was charged twice for my last order ({order}). Can you check?",
		"O:Hi {first}, I'm sorry about that! Let me look into your payment history.",
		"O:You're right, the payment of {amount} was captured twice. I've started the refund for the duplicate charge.",
		"C:How long does the refund take?",
		"O:Usually 3 to 5 business days, depending on your bank.",
		"C:Okay, thanks for sorting this out so quickly.",
	},
	{
		"C:Is the {product} waterproof? I'm planning a hiking trip to Scotland.",
		"O:Great choice of destination! Yes, it has a 20,000 mm waterproof rating and taped seams.",
		"C:And how heavy is it?",
		"O:It weighs about 1.9 kg including the stakes. Many customers take it on multi-day treks.",
		"C:Sounds good. Do you ship to {city}?",
		"O:Yes, we ship there within 3–5 days. Orders over €50 ship for free.",
		"C:Thanks, I'll order it today.",
	},
	{
		"C:I can't log in to my account, the password reset email never arrives.",
		"O:Hi {first}, sorry for the trouble. Could you confirm the email address on your account?",
		"C:It's the one I'm writing from.",
		"O:Thanks. I've triggered a new reset email. Please also check your spam folder.",
		"C:Found it in spam, it works now. Thank you!",
		"O:Glad to hear it! I'd recommend adding our address to your contacts so it doesn't happen again.",
	},
	{
		"C:Hi, we run a small café in {city} and are interested in wholesale prices.",
		"O:Hi {first}, that's wonderful to hear! How much coffee do you go through per week, roughly?",
		"C:About 15 kg of espresso beans.",
		"O:For that volume we can offer our partner tier with 18% off list prices and free delivery.",
		"C:That sounds interesting. Can you send me an offer?",
		"O:Sure! I'll email a detailed offer today. Our wholesale team will follow up with samples.",
		"C:Looking forward to it.",
	},
	{
		"C:The website keeps showing an error at checkout: \"payment method declined\".",
		"O:Hi {first}, thanks for letting us know. Which payment method are you using?",
		"C:Credit card, Visa.",
		"O:There was a short outage with our payment provider earlier today; it's resolved now. Could you try again?",
		"C:Just tried again, it went through. Thanks!",
	},
	{
		"C:I want to pause my subscription for a month while I'm travelling.",
		"O:Hi {first}! No problem at all. Your next delivery would be on {date}. Shall I skip that one?",
		"C:Yes please, and resume afterwards.",
		"O:Done! Your subscription is paused until {date} and resumes automatically afterwards.",
		"C:Perfect, thank you.",
	},
	{
		"C:Just wanted to say the support last week was fantastic. {op} really helped me out!",
		"O:Thank you so much, {first}! I'll pass this on to {op}, that will make their day.",
		"C:👍",
	},
}

var botGreetings = []string{
	"Hi! I'm {bot}, the virtual assistant of {org}. How can I help you today?",
	"Hello 👋 I'm {bot}. Ask me anything about orders, shipping or returns.",
}

var botHandovers = []string{
	"Thanks! I'm connecting you with a member of our team, one moment please.",
	"I'll hand you over to a colleague who can help with that.",
}

var smallTalk = []string{
	"C:Sorry, one more question.",
	"O:Sure, go ahead!",
	"C:Do you also have it in dark green?",
	"O:Let me check the stock for you… yes, dark green is available in all sizes.",
	"C:Can you tell me when the new collection comes out?",
	"O:The spring collection launches on {date}. Subscribers get early access.",
	"C:Okay, thanks.",
	"O:Anything else I can do for you?",
	"C:Could you add a note that I prefer deliveries in the afternoon?",
	"O:I've added that to your customer profile.",
	"C:Here is a photo of the damaged item: https://files.example.net/uploads/IMG_2041.jpg",
	"O:Thanks for the photo. I can clearly see the damage, we'll send a replacement right away.",
	"C:Is there a discount code for returning customers?",
	"O:Yes! Use WELCOMEBACK10 for 10% off your next order.",
	"C:Vielen Dank für die schnelle Hilfe!",
	"O:Gern geschehen! Einen schönen Tag noch.",
	"C:Merci beaucoup !",
	"O:Avec plaisir, bonne journée !",
	"C:Thanks! 👩‍💻🏳️‍🌈 Great service 🇩🇪🇯🇵🇧🇷",
	"C:您好，我的订单什么时候发货？",
	"O:您好！您的订单将在两个工作日内发货。",
	"C:مرحبا، أحتاج إلى مساعدة في طلبي",
	"O:مرحبا! يسعدني مساعدتك. ما هو رقم الطلب؟",
	"C:שלום, אני צריך עזרה עם ההזמנה שלי",
	"O:שלום! בשמחה, מה מספר ההזמנה?",
}

var noteTexts = []string{
	"VIP customer, prefers contact by email.",
	"Asked about wholesale pricing – follow up next month.",
	"Had a damaged delivery in the past, please handle with extra care.",
	"Speaks German and English.",
	"Interested in the new spring collection; send the lookbook.",
	"Refund of {amount} processed manually on {date}.",
	"Prefers deliveries in the afternoon.",
	"Loyal subscriber since 2021.",
	"Do not call before 10:00, works night shifts.",
	"Reported a bug with the checkout on Safari.",
}

var feedbackTexts = []string{
	"Very quick and friendly help, thank you!",
	"Problem solved in minutes.",
	"Took a while to get an answer, but in the end it worked out.",
	"Great service as always.",
	"The bot didn't understand me, but the human agent was great.",
}

var operatorStatuses = []string{"online", "slots_full", "away", "offline", "removed_widget"}
var conversationCategories = []string{"live", "offline", "re-engage"}
var inactivityActions = []string{"status_unassign", "status_reassign", "status_reassign_fail", "active_notification", "active_reassign", "active_reassign_fail", "offline_reassign", "offline_reassign_fail"}
var preSurveyLabels = []string{"Order status", "Returns", "Product advice", "Something else"}
var postSurveyLabels = []string{"Very satisfied", "Satisfied", "Neutral", "Unsatisfied"}
var statusDurationValues = []string{"new", "open", "pending"}

// Hostile strings: terminal escape sequences, C1 controls, bidi overrides, zero-width
// characters and other text that a terminal client must render inertly.
// hostileName carries escape sequences, a bidi override and, after "Mallory", characters a
// terminal draws as nothing: a ZWNJ outside a word, tag characters (hidden "tag" text),
// Hangul fillers, an isolate, a word joiner, a BOM, a soft hyphen, and a line separator
// where a space would be.
var hostileName = "\x1b]0;pwned\x07Mallory\u200c\U000E0001\U000E0041\U000E0042\u115f\u3164\u2066\u2060\ufeff\u00ad\u2069\u2028\u202eredoc\u202c \x1b[31mRed\x1b[0m\u009b2J 👩\u200d💻"

var hostileMessages = []string{
	"Hi, my order is broken \x1b]0;pwned\x07 please help",
	"\x1b[2J\x1b[HThe screen should not be cleared by this message.",
	"Copy this: \x1b]52;c;cm0gLXJmIH4vKg==\x07 (an OSC 52 clipboard write)",
	"Click \x1b]8;;https://evil.example/phish\x07here\x1b]8;;\x1b\\ to claim your refund",
	"DCS test \x1bP1$r0m\x1b\\ and APC \x1b_payload\x1b\\ and PM \x1b^privacy\x1b\\",
	"C1 CSI \u009b31mred?\u009b0m and NEL\u0085here",
	"Please open invoice_\u202Efdp.exe today",
	"zero\u200bwidth\u200djoined\u2060text\ufeff\u200c and soft\u00adhyphen\U000E0001\U000E0068\U000E0069\U000E007F\u115f\u1160\u3164\uffa0\u200e\u200f\u061c",
	"Family: 👨‍👩‍👧‍👦 Coder: 👩‍💻 Flag: 🏳️‍🌈 🇺🇦 🇯🇵 Skin: 👋🏽",
	"我的订单号是 {order}，请帮我查一下物流。谢谢！",
	"مرحبا، طلبي رقم {order} لم يصل بعد",
	"שלום, ההזמנה {order} עדיין לא הגיעה",
	"Mixed: hello مرحبا שלום 你好 end",
	"",
	"Tabs\tand\rcarriage returns\r\nand a bell\x07 and a backspace\b",
	"\x1b[6n\x1b[c Are you there? (device status and attributes queries)",
	"\x1b[?1049h\x1b[?25l alternate screen and hidden cursor",
	"Null byte: \x00 DEL: \x7f",
	"Invalid UTF-8: \xff\xfe\xc3 end",
}

var hostileNotes = []string{
	"Customer pasted \x1b]0;pwned\x07 into the form – watch out.",
	"Note with bidi \u202Egnirts desrever\u202C and ZWJ a\u200db\u200c \u2067isolate\u2069\U000E0020\U000E0074\U000E0061\U000E0067\u3164",
	"",
	"Pasted from a log: \x1b[2J\u009b31m C1 CSI \x1bP1$r0m\x1b\\ DCS \x1b]52;c;cm0gLXJmIH4vKg==\x07 OSC 52",
	"客户说：订单还没到。 العميل ينتظر الرد. הלקוח מחכה. 👨\u200d👩\u200d👧",
	hostileLongLine,
}

// hostileLongLine is a 10,000-character line without a break.
var hostileLongLine = strings.Repeat("Long note without a single line break. ", 10000/39+1)[:10000]
