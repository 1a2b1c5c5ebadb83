package i18n

// presetRu are the presets' descriptions in Russian, by preset name. The
// English ones are the core's own (backoff.Preset.Description), which the
// CLI prints too.
var presetRu = map[string]string{
	// AWS.
	"aws-standard":          "Стандартный механизм повторов AWS SDK for Go v2, по умолчанию с v1.48.0 (2026-11-10): полный джиттер поверх min(50ms*2^(n-1), 20s), 3 попытки; для ошибок троттлинга основа 1 с; x-amz-retry-after ограничивается отрезком [t, t+5s]. В v1.42.0–v1.47 он работал только при AWS_NEW_RETRIES_2026=true; без неё, как и раньше, по умолчанию был aws-legacy",
	"aws-legacy":            "Устаревший механизм повторов AWS SDK for Go v2, NewStandard по умолчанию до v1.48.0 (а с v1.42.0 — если не задано AWS_NEW_RETRIES_2026=true): U[0,1)*2^n секунд, начиная с 5-го повтора ровно 20 с, 3 попытки",
	"aws-blog-full":         "Полный джиттер из AWS Architecture Blog (2015): U[0, min(cap, base*2^n)), основа 5, потолок 2000 единиц времени (принятых за секунды), без ограничения числа попыток",
	"aws-blog-equal":        "Равный джиттер из AWS Architecture Blog (2015): v/2 + U[0, v/2), v = min(cap, base*2^n), основа 5, потолок 2000",
	"aws-blog-decorrelated": "Декоррелированный джиттер из AWS Architecture Blog (2015): sleep = min(cap, U[base, sleep*3)), основа 5, потолок 2000",

	// gRPC.
	"grpc-retry":        "Политика повторов gRPC так, как её выполняет grpc-go v1.85.0 (gRFC A6 с поправкой 2024 года; в первой редакции был полный джиттер): min(initial*mult^(n-1), max) * U[0.8,1.2); A6 не задаёт значений по умолчанию, поэтому взят пример из него: initial 0,1 с, mult 2, max 1 с, 5 попыток",
	"grpc-retry-legacy": "Политика повторов gRPC до 2024 года (grpc-go v1.68 и старше, первая редакция gRFC A6): U[0, min(initial*mult^(n-1), max)); значения из примера A6: initial 0,1 с, mult 2, max 1 с, 5 попыток",
	"grpc-connect":      "Бэкофф подключения gRPC: первый повтор ровно через 1 с, затем min(1s*1.6^(n-1), 120s) * (1 + 0.2*U[-1,1)), без ограничения числа попыток",

	// Google.
	"gax": "Google gax-go v2 Backoff.Pause: 1ns + U[0, min(1s*2^(n-1), 30s)); без ограничения числа попыток (повторы останавливает дедлайн контекста)",

	// Azure.
	"azure": "Azure SDK for Go azcore: (2^n - 1)*800ms*U[0.8,1.3), затем ограничение потолком 60 с; 4 попытки; повторы прекращаются, если Retry-After превышает потолок",

	// Go libraries.
	"cenkalti":      "cenkalti/backoff v5 ExponentialBackOff: U[cur*0.5, cur*1.5], cur = min(500ms*1.5^(n-1), 60s), потолок применяется ДО рандомизации (паузы доходят до 90 с); предельное общее время 15 мин",
	"retryablehttp": "hashicorp/go-retryablehttp DefaultBackoff: min(1s*2^(n-1), 30s), без джиттера, RetryMax 4 (5 попыток); Retry-After в ответах 429/503 берётся как есть, без потолка",

	// Kubernetes.
	"k8s-crashloop": "kubelet CrashLoopBackOff: первый перезапуск сразу, затем min(10s*2^(n-2), 300s): 0 10 20 40 80 160 300 300...; перезапуски без конца",
	"k8s-workqueue": "Поэлементный ограничитель workqueue из client-go: 5ms*2^(n-1), потолок 1000 с, без джиттера (ограничитель контроллера по умолчанию ещё берёт максимум с корзиной токенов на 10 qps со всплеском до 100)",

	// Proxies.
	"envoy": "Маршрутизатор Envoy так, как его код работает с v1.14.0: U[0, min(25ms*2^(n-1), 250ms)) в целых миллисекундах, num_retries 1 (2 попытки); бюджет повторов — 20 % активных запросов, но не меньше 3. Документация Envoy до сих пор даёт U[0, (2^n - 1)*25ms) — формулу до v1.14.0",

	"istio": "Повторы маршрута Istio по умолчанию: бэкофф Envoy U[0, min(25ms*2^(n-1), 250ms)) с NumRetries 2 из Istio (3 попытки) при connect-failure, refused-stream, unavailable, cancelled и 503",

	// Workflow engines.
	"temporal":       "Политика повторов Temporal по умолчанию (для активностей и для рабочих процессов, которым задана политика): min(1s*2^(n-1), 100s), MaximumInterval = 100 × InitialInterval, без джиттера, MaximumAttempts 0 (без ограничения)",
	"step-functions": "Ретрайер AWS Step Functions по умолчанию: IntervalSeconds 1, BackoffRate 2.0, MaxAttempts 3 (3 повтора, 4 попытки); MaxDelaySeconds (по умолчанию не задан) ограничивает интервал, а JitterStrategy FULL (по умолчанию NONE) берёт U[0, интервал)",

	// Supervisors.
	"systemd": "systemd Restart=: RestartSec 100 мс между перезапусками (для RestartSteps/RestartMaxDelaySec задайте шаги и потолок); больше 5 запусков за 10 с не допускается, поэтому 5 попыток",

	// Networks.
	"tcp-rfc6298": "Таймер повторной передачи TCP, RFC 6298: RTO от 1 с с удвоением, потолок 60 с; число попыток RFC не задаёт, поэтому дедлайном служит R2 >= 100s из RFC 1122",
	"tcp-linux":   "TCP в Linux, установленное соединение: RTO от TCP_RTO_MIN 200 мс с удвоением до 120 с, tcp_retries2 = 15 (16 попыток); с последним таймером на 120 с попытки прекращаются через 924,6 с",
	"ethernet":    "Ethernet (IEEE 802.3), усечённый двоичный экспоненциальный бэкофф: U{0 .. 2^k-1} слотов по 51,2 мкс, k = min(n, 10); после 16 попыток кадр отбрасывается",

	// Job queues.
	"sidekiq": "Sidekiq: count^4 + 15 + rand(10*(count+1)) секунд, count с 0; 25 повторов (26 попыток), всего около 20,4 дня",
	"celery":  "Автоповтор Celery с retry_backoff=True: randrange(min(600, 2^(n-1)) + 1) целых секунд, max_retries 3 (4 попытки)",

	// Resilience libraries.
	"polly":        "Polly v8 по умолчанию: постоянная пауза 2 с, без джиттера, MaxRetryAttempts 3 (4 попытки)",
	"polly-v2":     "Polly v8, Exponential с UseJitter: DecorrelatedJitterBackoffV2, медиана первой паузы 2 с, MaxRetryAttempts 3 (4 попытки)",
	"polly-wiki":   "Первый декоррелированный джиттер Polly (из его вики, 2017): min(max, max(seed, prev*3*U[0,1))) зажимает розыгрыш с обеих сторон, поэтому паузы скапливаются ровно на seed и, когда prev*3 его превысит, ровно на max (к 10-му повтору около трети); вики значений не задаёт, здесь выбраны seed 1 с, max 10 с, 10 повторов (11 попыток). Polly.Contrib.WaitAndRetry 1.0 заменил его на U[min, min(max, prev*3)), затем на V2",
	"spring-retry": "Spring Retry, ExponentialBackOffPolicy по умолчанию: min(100ms*2^(n-1), 30s), без джиттера; maxAttempts 3 у SimpleRetryPolicy включает первую попытку",
	"urllib3":      "urllib3 2.x Retry (адаптеры requests): первый повтор без паузы, затем min(backoff_max, backoff_factor*2^(n-1) + U(0, backoff_jitter)); по умолчанию backoff_factor 0 (бэкоффа нет вовсе), поэтому взят совет из его документации: factor 0,5, jitter 0,5 с; backoff_max 120 с, total 10 (11 попыток)",
	"tenacity":     "Python tenacity, wait_exponential_jitter по умолчанию: min(1s*2^(n-1) + U(0, 1s), max), max фактически не ограничен, без остановки (stop never)",
}

// PresetDescription is a preset's description in l: en is the core's
// English text, passed in so this package needs no import of the core.
func (l Lang) PresetDescription(name, en string) string {
	if l == Ru {
		if ru, ok := presetRu[name]; ok && ru != "" {
			return ru
		}
	}
	return en
}
