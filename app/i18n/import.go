package i18n

// importMessages are the import panel's strings, kept apart from the
// main catalog and merged into it when the package starts.
var importMessages = map[string][2]string{
	"import.button": {"Import", "Импорт"},
	"import.head":   {"Import a retry config", "Импорт конфигурации повторов"},
	"import.text":   {"Config or code", "Конфигурация или код"},
	"import.hint": {"Paste the retry config your code runs: {1}. The link keeps the policy, not the text.",
		"Вставьте конфигурацию повторов, которую выполняет ваш код: {1}. Ссылка сохранит политику, а не текст."},
	// A format as the hint names it (in Russian, as the object of
	// «вставьте»), one per importer format.
	"import.format.tenacity":       {"tenacity", "tenacity"},
	"import.format.urllib3":        {"urllib3", "urllib3"},
	"import.format.grpc":           {"a gRPC service config", "конфигурацию сервиса gRPC"},
	"import.format.envoy":          {"an Envoy route", "маршрут Envoy"},
	"import.format.istio":          {"an Istio VirtualService", "ресурс VirtualService в Istio"},
	"import.format.polly":          {"Polly", "Polly"},
	"import.format.resilience4j":   {"resilience4j", "resilience4j"},
	"import.format.spring-retry":   {"Spring Retry", "Spring Retry"},
	"import.format.cenkalti":       {"cenkalti/backoff", "cenkalti/backoff"},
	"import.format.aws-sdk-go-v2":  {"the AWS SDK for Go", "AWS SDK для Go"},
	"import.format.temporal":       {"Temporal", "Temporal"},
	"import.format.step-functions": {"Step Functions", "Step Functions"},
	"import.format.retryablehttp":  {"go-retryablehttp", "go-retryablehttp"},
	"import.format.celery":         {"Celery", "Celery"},
	"list.or":                      {"{1} or {2}", "{1} или {2}"},
	"import.loading":               {"Loading the config reader…", "Загружается чтение конфигураций…"},
	"import.load-failed":           {"The config reader could not be loaded ({1}): check the connection and read again.", "Не удалось загрузить чтение конфигураций ({1}): проверьте соединение и прочитайте снова."},
	"import.apply":                 {"Read and load", "Прочитать и загрузить"},
	"import.done":                  {"Read as {1}; the policy is loaded: {2}.", "Прочитано как {1}; политика загружена: {2}."},
	"import.empty":                 {"Paste a config first.", "Сначала вставьте конфигурацию."},
	"import.none":                  {"No retry policy found in this text. The formats read: {1}.", "В этом тексте не найдено политики повторов. Читаются форматы: {1}."},
	"import.too-long":              {"The text is {1} {1|byte|bytes} ({2}): at most {3} {3|byte is|bytes are} read ({4}).", "В тексте {1} {1|байт|байта|байт} ({2}), а читается не больше {3} {3|байта|байт|байт} ({4})."},
	"import.kb":                    {"{1} KB", "{1}\u00a0КБ"},
	"import.invalid":               {"The policy read cannot be drawn: {1}", "Прочитанную политику нельзя построить: {1}"},
	"import.line":                  {"line {1}", "строка {1}"},
	"import.default":               {"default", "по умолчанию"},
	"import.read-head":             {"What was read", "Что прочитано"},
	"import.notes-head":            {"Notes", "Замечания"},
	"import.source":                {"Read as the library's own code reads it: {1}.", "Прочитано так, как читает сама библиотека: {1}."},

	"import.warn.unreadable":       {"{1} is {2}, which is not a literal (a variable or a computed value): it is not read.", "{1} = {2} — не литерал (переменная или вычисленное значение), поэтому не прочитано."},
	"import.warn.ignored":          {"{1} is ignored: {2}.", "{1} не учитывается: {2}."},
	"import.warn.range":            {"{1} = {2} is outside the range: {3} is used.", "{1} = {2} вне допустимого диапазона: взято {3}."},
	"import.warn.invalid":          {"{1} = {2}: the library does not accept this value.", "{1} = {2}: библиотека не принимает это значение."},
	"import.warn.budget":           {"retryThrottling (maxTokens {1}, tokenRatio {2}) is a retry budget: the delay table does not draw it; the herd simulator's grpc budget does.", "retryThrottling (maxTokens {1}, tokenRatio {2}) — это бюджет повторов: таблица пауз его не учитывает, а симулятор толпы учитывает как бюджет grpc."},
	"import.warn.rounding":         {"The library keeps durations in whole steps of {1}: delays may differ by up to that.", "Библиотека хранит длительности целыми шагами по {1}: паузы могут отличаться на столько же."},
	"import.warn.deadline-timeout": {"Its overall timeout of {1} is read as the deadline; it also cancels a try in flight.", "Её общий таймаут {1} прочитан как дедлайн; он прерывает и текущую попытку."},
	"import.warn.several":          {"The text holds {1} retry policies: the one at line {2} is read.", "Политик повторов в тексте: {1}; прочитана политика из строки {2}."},
	"import.warn.throttle-base":    {"After a throttling error it backs off from {1} instead.", "После ошибки троттлинга она отсчитывает паузы от {1}."},
	"import.warn.cap-drawn":        {"Before retry {1} the library still draws a random delay up to {2}; the policy waits exactly {2} there.", "Перед повтором {1} библиотека ещё выбирает случайную паузу до {2}, а политика ждёт ровно {2}."},
	"import.warn.param-default":    {"{1} is a parameter of {2}: its default, {3}, is read; a caller may pass another.", "{1} — параметр {2}: прочитано его значение по умолчанию, {3}; вызывающий код может передать другое."},
	"import.warn.not-in-text":      {"{1} is not in the text: the library's default, {2}, is read.", "{1} нет в тексте: взято значение библиотеки по умолчанию, {2}."},
	"import.warn.version":          {"This is how the library runs from {1} on; older versions run what the {2} preset shows.", "Так библиотека работает начиная с {1}; более старые версии — как в пресете {2}."},
	"import.func":                  {"{1}()", "функции {1}()"},
	"import.func-anon":             {"an anonymous function", "безымянной функции"},

	"import.pick":         {"Policy to read", "Какую политику читать"},
	"import.pick-named":   {"{1}. {2} ({3}, line {4})", "{1}. {2} ({3}, строка {4})"},
	"import.pick-unnamed": {"{1}. {2}, line {3}", "{1}. {2}, строка {3}"},

	"import.refused.depth":  {"Not read: the {1} nests deeper than {2} levels.", "Не прочитано: {1} вложен глубже чем на {2} уровней."},
	"import.refused.values": {"Not read: the {1} holds more than {2} values (YAML aliases can expand a few lines into millions).", "Не прочитано: в {1} больше {2} значений (псевдонимы YAML могут развернуть несколько строк в миллионы)."},

	"import.reason.classify":     {"it says what to retry, not when (the classifier decides that)", "это о том, что повторять, а не когда (это решает классификатор)"},
	"import.reason.per-try":      {"a timeout of each try is not part of the delays (the herd's client timeout models it)", "таймаут каждой попытки не входит в паузы (его моделирует таймаут клиента в толпе)"},
	"import.reason.unknown":      {"the library does not read it", "библиотека его не читает"},
	"import.reason.not-modelled": {"it does not change the delays between retries", "на паузы между повторами он не влияет"},
}

func init() {
	for k, v := range importMessages {
		if _, dup := messages[k]; dup {
			panic("i18n: import message " + k + " is in the catalog twice")
		}
		messages[k] = v
	}
}
