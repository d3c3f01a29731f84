package sandbox

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// limiter enforces the daily limits (by Options.Now), burst throttling and the analytics
// per-minute limit (both by Options.Clock, the real clock unless a test steps one). An
// analytics request's minute starts when it is handled.
type limiter struct {
	mu        sync.Mutex
	daily     int
	rate      float64
	burst     float64
	perMinute int

	day     string
	counts  map[string]int
	buckets map[string]*bucket
	minute  map[string][]time.Time
	real    func() time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(o Options) *limiter {
	return &limiter{
		daily:     o.DailyLimit,
		rate:      o.BurstRate,
		burst:     float64(o.Burst),
		perMinute: o.AnalyticsPerMinute,
		counts:    map[string]int{},
		buckets:   map[string]*bucket{},
		minute:    map[string][]time.Time{},
		real:      o.Clock,
	}
}

func tooMany(detail string, retry float64) *apiError {
	secs := int(math.Ceil(retry))
	if secs < 1 {
		secs = 1
	}
	return &apiError{status: http.StatusTooManyRequests, detail: detail, retryAfter: secs}
}

// allow accounts one request of a family in an organization made with token. It answers a
// 429 error when a limit is reached; a refused request uses up nothing.
func (l *limiter) allow(token string, org int64, family string, analytics bool, now time.Time) *apiError {
	l.mu.Lock()
	defer l.mu.Unlock()
	real := l.real()
	orgKey := strconv.FormatInt(org, 10)

	// Burst: a token bucket per token and organization.
	var b *bucket
	if l.rate > 0 {
		key := token + "|" + orgKey
		b = l.buckets[key]
		if b == nil {
			b = &bucket{tokens: l.burst, last: real}
			l.buckets[key] = b
		}
		b.tokens = math.Min(l.burst, b.tokens+real.Sub(b.last).Seconds()*l.rate)
		b.last = real
		if b.tokens < 1 {
			return tooMany("Request was throttled. Expected available in a few seconds.", (1-b.tokens)/l.rate)
		}
	}

	// Daily: per family and organization, reset at 00:00 UTC of the Options clock.
	utc := now.UTC()
	day := utc.Format("2006-01-02")
	if day != l.day {
		l.day = day
		l.counts = map[string]int{}
	}
	dkey := family + "|" + orgKey
	if l.counts[dkey] >= l.daily {
		midnight := time.Date(utc.Year(), utc.Month(), utc.Day()+1, 0, 0, 0, 0, time.UTC)
		return tooMany("Daily request limit of "+strconv.Itoa(l.daily)+" reached for "+family+"; it resets at 00:00 UTC.",
			midnight.Sub(utc).Seconds())
	}

	// Analytics: per metric and organization in any 60 seconds.
	var mkey string
	if analytics {
		mkey = dkey
		recent := l.minute[mkey][:0]
		for _, t := range l.minute[mkey] {
			if real.Sub(t) < time.Minute {
				recent = append(recent, t)
			}
		}
		l.minute[mkey] = recent
		if len(recent) >= l.perMinute {
			return tooMany("Analytics request limit of "+strconv.Itoa(l.perMinute)+" per minute reached for this metric.",
				time.Minute.Seconds()-real.Sub(recent[0]).Seconds())
		}
	}

	if b != nil {
		b.tokens--
	}
	l.counts[dkey]++
	if analytics {
		l.minute[mkey] = append(l.minute[mkey], real)
	}
	return nil
}
