// google-api-go-client (Debian golang-google-api-dev, 0.61) against a workspace-gym server.
//
// Usage: googleclients -url http://127.0.0.1:PORT/ -token TOKEN -peer EMAIL
//
// Runs each scenario through the official client and prints one JSON object: scenario -> what it saw.
// The calling test (tests/sdk/go.test.ts) asserts on it. A scenario that fails reports {"error": ...}.
package main

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"strings"

	"golang.org/x/oauth2"
	calendar "google.golang.org/api/calendar/v3"
	drive "google.golang.org/api/drive/v3"
	gmail "google.golang.org/api/gmail/v1"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
)

type result map[string]interface{}

var errStop = errors.New("enough pages")

func apiError(err error) result {
	var gerr *googleapi.Error
	if !errors.As(err, &gerr) {
		return result{"notGoogleError": fmt.Sprint(err)}
	}
	reason := ""
	if len(gerr.Errors) > 0 {
		reason = gerr.Errors[0].Reason
	}
	return result{"code": gerr.Code, "reason": reason, "message": gerr.Message}
}

func md5hex(b []byte) string {
	sum := md5.Sum(b)
	return hex.EncodeToString(sum[:])
}

// pattern fills n bytes with a repeating non-trivial sequence.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte((i * 7) % 251)
	}
	return b
}

func driveUploads(ctx context.Context, srv *drive.Service) (result, error) {
	small := pattern(1000)
	made, err := srv.Files.Create(&drive.File{Name: "go-multipart.bin"}).Fields("id,size,md5Checksum").
		Media(bytes.NewReader(small), googleapi.ContentType("application/octet-stream")).Do()
	if err != nil {
		return nil, fmt.Errorf("multipart: %w", err)
	}
	big := pattern(600 * 1024)
	// Larger than one chunk: the client opens a resumable session and POSTs 256 KiB chunks with X-GUploader-No-308.
	res, err := srv.Files.Create(&drive.File{Name: "go-resumable.bin"}).Fields("id,size,md5Checksum").
		Media(bytes.NewReader(big), googleapi.ChunkSize(256*1024), googleapi.ContentType("application/octet-stream")).Do()
	if err != nil {
		return nil, fmt.Errorf("resumable: %w", err)
	}
	resp, err := srv.Files.Get(res.Id).Download()
	if err != nil {
		return nil, fmt.Errorf("download: %w", err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	next := pattern(300 * 1024)[1:]
	updated, err := srv.Files.Update(res.Id, &drive.File{}).Fields("id,size,md5Checksum").
		Media(bytes.NewReader(next), googleapi.ChunkSize(256*1024), googleapi.ContentType("application/octet-stream")).Do()
	if err != nil {
		return nil, fmt.Errorf("resumable update: %w", err)
	}
	return result{
		"update":    result{"size": updated.Size, "md5ok": updated.Md5Checksum == md5hex(next)},
		"multipart": result{"size": made.Size, "md5ok": made.Md5Checksum == md5hex(small)},
		"resumable": result{"size": res.Size, "md5ok": res.Md5Checksum == md5hex(big)},
		"download":  result{"same": bytes.Equal(got, big)},
	}, nil
}

func drivePagingErrors(ctx context.Context, srv *drive.Service) (result, error) {
	pages, listed := 0, 0
	err := srv.Files.List().PageSize(2).Fields("nextPageToken, files(id,name)").Pages(ctx, func(r *drive.FileList) error {
		pages++
		listed += len(r.Files)
		if pages == 4 {
			return errStop
		}
		return nil
	})
	if err != nil && err != errStop {
		return nil, err
	}
	_, missing := srv.Files.Get("1doesnotexist000000000000000000000").Do()
	_, about := srv.About.Get().Do()
	root, err := srv.Files.Get("root").Do()
	if err != nil {
		return nil, fmt.Errorf("root: %w", err)
	}
	return result{"pages": pages, "listed": listed, "missing": apiError(missing), "aboutWithoutFields": apiError(about), "rootName": root.Name}, nil
}

func gmailScenarios(ctx context.Context, srv *gmail.Service, peer string) (result, error) {
	pages, listed := 0, 0
	err := srv.Users.Messages.List("me").MaxResults(3).Pages(ctx, func(r *gmail.ListMessagesResponse) error {
		pages++
		listed += len(r.Messages)
		if pages == 3 {
			return errStop
		}
		return nil
	})
	if err != nil && err != errStop {
		return nil, err
	}
	profile, err := srv.Users.GetProfile("me").Do()
	if err != nil {
		return nil, err
	}
	raw := "To: " + peer + "\r\nSubject: Resumable from Go\r\nContent-Type: text/plain\r\n\r\n" + strings.Repeat("line of text\r\n", 30000)
	sent, err := srv.Users.Messages.Send("me", &gmail.Message{}).
		Media(strings.NewReader(raw), googleapi.ChunkSize(256*1024), googleapi.ContentType("message/rfc822")).Do()
	if err != nil {
		return nil, fmt.Errorf("resumable send: %w", err)
	}
	hist, err := srv.Users.History.List("me").StartHistoryId(profile.HistoryId).HistoryTypes("messageAdded").Do()
	if err != nil {
		return nil, err
	}
	added := []string{}
	for _, h := range hist.History {
		for _, a := range h.MessagesAdded {
			added = append(added, a.Message.Id)
		}
	}
	got, err := srv.Users.Messages.Get("me", sent.Id).Format("raw").Do()
	if err != nil {
		return nil, err
	}
	decoded, err := base64.URLEncoding.DecodeString(got.Raw) // strict: padding required
	if err != nil {
		return nil, fmt.Errorf("raw decode: %w", err)
	}
	_, missing := srv.Users.Messages.Get("me", "0000000000000000").Do()
	return result{
		"pages": pages, "listed": listed, "sentId": sent.Id, "labelIds": sent.LabelIds, "added": added,
		"rawBytes": len(decoded), "missing": apiError(missing),
	}, nil
}

func calendarSync(ctx context.Context, srv *calendar.Service) (result, error) {
	pages, items := 0, 0
	err := srv.Events.List("primary").MaxResults(5).Pages(ctx, func(r *calendar.Events) error {
		pages++
		items += len(r.Items)
		if pages == 3 {
			return errStop
		}
		return nil
	})
	if err != nil && err != errStop {
		return nil, err
	}
	syncToken := ""
	err = srv.Events.List("primary").Pages(ctx, func(r *calendar.Events) error {
		syncToken = r.NextSyncToken
		return nil
	})
	if err != nil {
		return nil, err
	}
	made, err := srv.Events.Insert("primary", &calendar.Event{Summary: "Go sync probe",
		Start: &calendar.EventDateTime{DateTime: "2026-06-02T10:00:00Z"}, End: &calendar.EventDateTime{DateTime: "2026-06-02T11:00:00Z"}}).Do()
	if err != nil {
		return nil, err
	}
	delta, err := srv.Events.List("primary").SyncToken(syncToken).Do()
	if err != nil {
		return nil, err
	}
	ids := []string{}
	for _, e := range delta.Items {
		ids = append(ids, e.Id)
	}
	// A stale etag on update: 412 through the client's error type.
	call := srv.Events.Patch("primary", made.Id, &calendar.Event{Summary: "renamed"})
	call.Header().Set("If-Match", `"1"`)
	_, stale := call.Do()
	return result{"pages": pages, "items": items, "deltaIds": ids, "madeId": made.Id, "staleEtag": apiError(stale)}, nil
}

// rawBatch: the Go client has no batch API; this sends Google's multipart/mixed batch format by hand over the
// same authorised client, as Go programs do, and reads the parts back.
func rawBatch(ctx context.Context, client *http.Client, base string) (result, error) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for i, path := range []string{"/drive/v3/files?pageSize=1", "/drive/v3/files/1doesnotexist000000000000000000000"} {
		h := textproto.MIMEHeader{}
		h.Set("Content-Type", "application/http")
		h.Set("Content-ID", fmt.Sprintf("<go-batch+%d>", i+1))
		part, err := w.CreatePart(h)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(part, "GET %s HTTP/1.1\r\n\r\n", path)
	}
	w.Close()
	req, err := http.NewRequestWithContext(ctx, "POST", base+"batch/drive/v3", &body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "multipart/mixed; boundary="+w.Boundary())
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	_, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil {
		return nil, err
	}
	r := multipart.NewReader(resp.Body, params["boundary"])
	ids, statuses := []string{}, []string{}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		ids = append(ids, p.Header.Get("Content-Id"))
		inner, _ := io.ReadAll(p)
		statuses = append(statuses, strings.SplitN(string(inner), "\r\n", 2)[0])
	}
	return result{"status": resp.StatusCode, "contentIds": ids, "statusLines": statuses}, nil
}

func main() {
	url := flag.String("url", "", "server root, ending in /")
	token := flag.String("token", "", "a world user's Google token")
	peer := flag.String("peer", "", "another world user's address")
	flag.Parse()
	ctx := context.Background()
	client := oauth2.NewClient(ctx, oauth2.StaticTokenSource(&oauth2.Token{AccessToken: *token, TokenType: "Bearer"}))
	// The Go client's endpoint is its base path: Drive and Calendar include their service path, Gmail does not.
	driveSrv, err := drive.NewService(ctx, option.WithHTTPClient(client), option.WithEndpoint(*url+"drive/v3/"))
	if err != nil {
		panic(err)
	}
	gmailSrv, err := gmail.NewService(ctx, option.WithHTTPClient(client), option.WithEndpoint(*url))
	if err != nil {
		panic(err)
	}
	calSrv, err := calendar.NewService(ctx, option.WithHTTPClient(client), option.WithEndpoint(*url+"calendar/v3/"))
	if err != nil {
		panic(err)
	}
	scenarios := []struct {
		name string
		run  func() (result, error)
	}{
		{"driveUploads", func() (result, error) { return driveUploads(ctx, driveSrv) }},
		{"drivePagingErrors", func() (result, error) { return drivePagingErrors(ctx, driveSrv) }},
		{"gmail", func() (result, error) { return gmailScenarios(ctx, gmailSrv, *peer) }},
		{"calendarSync", func() (result, error) { return calendarSync(ctx, calSrv) }},
		{"rawBatch", func() (result, error) { return rawBatch(ctx, client, *url) }},
	}
	out := result{}
	for _, s := range scenarios {
		r, err := s.run()
		if err != nil {
			r = result{"error": err.Error()}
		}
		out[s.name] = r
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
