// Command slackgo drives this server with slack-go (github.com/slack-go/slack), the Go Slack client, for
// tests/sdk/slack-go.test.ts. It runs one scenario, named by its argument, and prints what the client saw as JSON;
// the TypeScript test checks it. Configuration comes from the environment: SLACK_API_URL (".../api/"),
// TOKEN_ALICE, TOKEN_BOB, TOKEN_CAROL (user tokens) and CHANNEL (a channel id the scenario uses).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/slack-go/slack"
)

type result map[string]interface{}

func client(token string) *slack.Client {
	return slack.New(token, slack.OptionAPIURL(os.Getenv("SLACK_API_URL")))
}

// errorInfo describes an error the way the test compares it: the Slack error code, the messages of
// response_metadata, or the HTTP status of a file download.
func errorInfo(err error) result {
	if err == nil {
		return nil
	}
	out := result{"text": err.Error()}
	var slackErr slack.SlackErrorResponse
	if errors.As(err, &slackErr) {
		out["slack_error"] = slackErr.Err
		out["messages"] = slackErr.ResponseMetadata.Messages
	}
	var status slack.StatusCodeError
	if errors.As(err, &status) {
		out["http_status"] = status.Code
	}
	var limited *slack.RateLimitedError
	if errors.As(err, &limited) {
		out["retry_after_s"] = limited.RetryAfter.Seconds()
	}
	return out
}

func must(err error, what string) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
		os.Exit(2)
	}
}

func auth() result {
	me, err := client(os.Getenv("TOKEN_ALICE")).AuthTest()
	must(err, "auth.test")
	_, bad := client("xoxp-not-a-token").AuthTest()
	return result{"user_id": me.UserID, "team_id": me.TeamID, "user": me.User, "url": me.URL, "bad_token": errorInfo(bad)}
}

func list() result {
	api := client(os.Getenv("TOKEN_ALICE"))
	ids := []string{}
	pages := 0
	cursor := ""
	for {
		types := []string{"public_channel", "private_channel"}
		params := &slack.GetConversationsParameters{Limit: 2, Cursor: cursor, Types: types}
		channels, next, err := api.GetConversations(params)
		must(err, "conversations.list")
		pages++
		for _, ch := range channels {
			ids = append(ids, ch.ID)
		}
		if next == "" || pages > 100 {
			break
		}
		cursor = next
	}
	return result{"ids": ids, "pages": pages}
}

func thread() result {
	channel := os.Getenv("CHANNEL")
	_, parent, err := client(os.Getenv("TOKEN_BOB")).PostMessage(channel, slack.MsgOptionText("Go release notes?", false))
	must(err, "chat.postMessage")
	_, reply, err := client(os.Getenv("TOKEN_CAROL")).PostMessage(channel,
		slack.MsgOptionText("Drafted in the doc", false), slack.MsgOptionTS(parent))
	must(err, "chat.postMessage reply")
	params := &slack.GetConversationRepliesParameters{ChannelID: channel, Timestamp: parent}
	msgs, hasMore, _, err := client(os.Getenv("TOKEN_ALICE")).GetConversationReplies(params)
	must(err, "conversations.replies")
	texts := []string{}
	for _, m := range msgs {
		texts = append(texts, m.Text)
	}
	return result{"parent": parent, "reply": reply, "texts": texts, "has_more": hasMore,
		"reply_count": msgs[0].ReplyCount, "reply_thread_ts": msgs[len(msgs)-1].ThreadTimestamp}
}

func history() result {
	api := client(os.Getenv("TOKEN_ALICE"))
	ch, err := api.CreateConversation("go-history", false)
	must(err, "conversations.create")
	for i := 1; i <= 5; i++ {
		_, _, err := api.PostMessage(ch.ID, slack.MsgOptionText("m"+strconv.Itoa(i), false))
		must(err, "chat.postMessage")
	}
	_, err = api.SetTopicOfConversation(ch.ID, "Go topic")
	must(err, "conversations.setTopic")
	_, err = api.RenameConversation(ch.ID, "go-history-2")
	must(err, "conversations.rename")
	texts := []string{}
	system := []result{}
	pages := 0
	cursor := ""
	for {
		params := &slack.GetConversationHistoryParameters{ChannelID: ch.ID, Limit: 2, Cursor: cursor}
		page, err := api.GetConversationHistory(params)
		must(err, "conversations.history")
		pages++
		for _, m := range page.Messages {
			if m.SubType == "" {
				texts = append(texts, m.Text)
			} else {
				system = append(system, result{"subtype": m.SubType, "user": m.User, "topic": m.Topic,
					"name": m.Name, "old_name": m.OldName})
			}
		}
		if !page.HasMore || pages > 100 {
			break
		}
		cursor = page.ResponseMetaData.NextCursor
	}
	return result{"channel": ch.ID, "texts": texts, "pages": pages, "system": system}
}

// form posts an API method the way slack-go's own calls do (token in the form) and decodes the JSON answer.
func form(method, token string, values url.Values, out interface{}) {
	values.Set("token", token)
	resp, err := http.PostForm(os.Getenv("SLACK_API_URL")+method, values)
	must(err, method)
	defer resp.Body.Close()
	must(json.NewDecoder(resp.Body).Decode(out), method+" decode")
}

// uploadV2 is the files upload v2 sequence slack-go's UploadFileV2 performs (added in slack-go 0.12; Debian ships
// 0.11): files.getUploadURLExternal, a POST of the bytes to upload_url, files.completeUploadExternal.
func uploadV2(token, channel, name string, data []byte) (string, result) {
	var got struct {
		slack.SlackResponse
		UploadURL string `json:"upload_url"`
		FileID    string `json:"file_id"`
	}
	form("files.getUploadURLExternal", token, url.Values{"filename": {name}, "length": {strconv.Itoa(len(data))}}, &got)
	if !got.Ok {
		return "", result{"step": "getUploadURLExternal", "error": got.Error}
	}
	resp, err := http.Post(got.UploadURL, "application/octet-stream", bytes.NewReader(data))
	must(err, "upload")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return "", result{"step": "upload", "status": resp.StatusCode, "body": string(body)}
	}
	files, _ := json.Marshal([]map[string]string{{"id": got.FileID, "title": name}})
	var done struct {
		slack.SlackResponse
		Files []slack.File `json:"files"`
	}
	form("files.completeUploadExternal", token, url.Values{"files": {string(files)}, "channel_id": {channel}}, &done)
	if !done.Ok {
		return "", result{"step": "completeUploadExternal", "error": done.Error}
	}
	return done.Files[0].ID, nil
}

func files() result {
	channel := os.Getenv("CHANNEL")
	alice := client(os.Getenv("TOKEN_ALICE"))
	content := []byte("quarterly plan\nline two\n")
	id, failed := uploadV2(os.Getenv("TOKEN_ALICE"), channel, "plan.txt", content)
	if failed != nil {
		return result{"v2_failed": failed}
	}
	info, _, _, err := alice.GetFileInfo(id, 0, 0)
	must(err, "files.info")
	var got bytes.Buffer
	must(alice.GetFile(info.URLPrivateDownload, &got), "download")
	var stranger bytes.Buffer
	strangerErr := client(os.Getenv("TOKEN_CAROL")).GetFile(info.URLPrivateDownload, &stranger)
	legacy, err := alice.UploadFile(slack.FileUploadParameters{
		Content: "legacy upload body", Filename: "legacy.txt", Title: "Legacy", Channels: []string{channel},
	})
	must(err, "files.upload")
	var legacyBytes bytes.Buffer
	must(alice.GetFile(legacy.URLPrivate, &legacyBytes), "download legacy")
	return result{
		"file_id": id, "name": info.Name, "size": info.Size, "channels": append(info.Channels, info.Groups...),
		"url_private_download": info.URLPrivateDownload, "downloaded": got.String(),
		"stranger": errorInfo(strangerErr), "stranger_bytes": stranger.Len(),
		"legacy_id": legacy.ID, "legacy_downloaded": legacyBytes.String(),
	}
}

func envelopes() result {
	alice := client(os.Getenv("TOKEN_ALICE"))
	bob := client(os.Getenv("TOKEN_BOB"))
	channel := os.Getenv("CHANNEL")
	_, infoErr := alice.GetConversationInfo("CNOPE", false)
	_, _, emptyErr := alice.PostMessage("", slack.MsgOptionText("hello", false))
	_, ts, err := bob.PostMessage(channel, slack.MsgOptionText("bob's words", false))
	must(err, "chat.postMessage")
	_, _, deleteErr := client(os.Getenv("TOKEN_CAROL")).DeleteMessage(channel, ts)
	reactionErr := alice.AddReaction("definitely_not_an_emoji", slack.NewRefToMessage(channel, ts))
	okReaction := alice.AddReaction("thumbsup", slack.NewRefToMessage(channel, ts))
	var missing struct {
		slack.SlackResponse
	}
	form("conversations.history", os.Getenv("TOKEN_ALICE"), url.Values{}, &missing)
	return result{
		"info": errorInfo(infoErr), "empty_channel": errorInfo(emptyErr), "delete_other": errorInfo(deleteErr),
		"bad_reaction": errorInfo(reactionErr), "good_reaction": errorInfo(okReaction),
		"missing_channel": result{"error": missing.Error, "messages": missing.ResponseMetadata.Messages},
	}
}

func ratelimit() result {
	api := client(os.Getenv("TOKEN_BOB"))
	calls := 0
	for i := 0; i < 10; i++ {
		_, err := api.GetTeamInfo()
		if err != nil {
			return result{"ok_calls": calls, "error": errorInfo(err)}
		}
		calls++
	}
	return result{"ok_calls": calls}
}

func main() {
	scenarios := map[string]func() result{
		"auth": auth, "list": list, "thread": thread, "history": history, "files": files, "envelopes": envelopes,
		"ratelimit": ratelimit,
	}
	if len(os.Args) != 2 || scenarios[os.Args[1]] == nil {
		names := []string{}
		for name := range scenarios {
			names = append(names, name)
		}
		fmt.Fprintf(os.Stderr, "usage: slackgo <%s>\n", strings.Join(names, "|"))
		os.Exit(64)
	}
	must(json.NewEncoder(os.Stdout).Encode(scenarios[os.Args[1]]()), "encode")
}
