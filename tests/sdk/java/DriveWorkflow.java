// A realistic Drive v3 workflow with the official Java client (Debian libgoogle-api-services-drive-java), run by
// tests/sdk/java-drive.test.ts against this server. Usage: java DriveWorkflow URL TOKEN PEER_EMAIL.
// Each step prints its result (or the exception it threw) into one JSON object on stdout; the Java client's strict
// typed JSON parsing (int64 as @JsonString, DateTime fields) fails a step on any response-shape divergence.

import com.google.api.client.googleapis.auth.oauth2.GoogleCredential;
import com.google.api.client.googleapis.json.GoogleJsonResponseException;
import com.google.api.client.googleapis.media.MediaHttpUploader;
import com.google.api.client.http.ByteArrayContent;
import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.client.json.gson.GsonFactory;
import com.google.api.client.util.DateTime;
import com.google.api.services.drive.Drive;
import com.google.api.services.drive.model.About;
import com.google.api.services.drive.model.Change;
import com.google.api.services.drive.model.ChangeList;
import com.google.api.services.drive.model.Comment;
import com.google.api.services.drive.model.CommentList;
import com.google.api.services.drive.model.DriveList;
import com.google.api.services.drive.model.File;
import com.google.api.services.drive.model.FileList;
import com.google.api.services.drive.model.Permission;
import com.google.api.services.drive.model.PermissionList;
import com.google.api.services.drive.model.Reply;
import com.google.api.services.drive.model.RevisionList;
import com.google.api.services.drive.model.StartPageToken;
import com.google.gson.GsonBuilder;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

public class DriveWorkflow {
  interface Step {
    Object run() throws Exception;
  }

  static final Map<String, Object> out = new LinkedHashMap<>();
  static Drive drive;
  static String peer;
  // State shared by later steps.
  static String folderA, folderB, multipartId, resumableId, docId;

  static void step(String name, Step s) {
    try {
      out.put(name, s.run());
    } catch (Throwable e) {
      Map<String, Object> err = new LinkedHashMap<>();
      err.put("error", e.getClass().getName() + ": " + e.getMessage());
      StringWriter sw = new StringWriter();
      e.printStackTrace(new PrintWriter(sw));
      String trace = sw.toString();
      err.put("trace", trace.substring(0, Math.min(trace.length(), 1500)));
      out.put(name, err);
    }
  }

  static Map<String, Object> m(Object... kv) {
    Map<String, Object> r = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) r.put((String) kv[i], kv[i + 1]);
    return r;
  }

  static byte[] pattern(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) b[i] = (byte) ((i * 7) % 251);
    return b;
  }

  static String md5(byte[] b) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (byte x : MessageDigest.getInstance("MD5").digest(b)) sb.append(String.format("%02x", x));
    return sb.toString();
  }

  static Map<String, Object> apiError(Step s) throws Exception {
    try {
      s.run();
      return m("ok", true);
    } catch (GoogleJsonResponseException e) {
      String reason = e.getDetails() != null && e.getDetails().getErrors() != null
          ? e.getDetails().getErrors().get(0).getReason()
          : null;
      return m("code", e.getStatusCode(), "reason", reason, "detailsCode",
          e.getDetails() == null ? null : e.getDetails().getCode());
    }
  }

  static byte[] readAll(InputStream in) throws Exception {
    try (in) {
      ByteArrayOutputStream bo = new ByteArrayOutputStream();
      in.transferTo(bo);
      return bo.toByteArray();
    }
  }

  /**
   * Debian ships google-api-services-drive 1.32.1 with google-api-client 1.27.1, and the Drive class refuses to load
   * under an api-client older than 1.31.1 (a version gate only: the generated code uses nothing newer). Raise the
   * reported version before Drive loads; GoogleUtils' version fields are static finals, so this takes Unsafe.
   */
  static void passVersionGate() throws Exception {
    Class<?> gu = com.google.api.client.googleapis.GoogleUtils.class;
    if (com.google.api.client.googleapis.GoogleUtils.MINOR_VERSION >= 31) return;
    java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
    f.setAccessible(true);
    sun.misc.Unsafe u = (sun.misc.Unsafe) f.get(null);
    java.lang.reflect.Field minor = gu.getField("MINOR_VERSION");
    u.putObject(u.staticFieldBase(minor), u.staticFieldOffset(minor), Integer.valueOf(31));
    java.lang.reflect.Field bugfix = gu.getField("BUGFIX_VERSION");
    u.putObject(u.staticFieldBase(bugfix), u.staticFieldOffset(bugfix), Integer.valueOf(1));
  }

  public static void main(String[] args) throws Exception {
    passVersionGate();
    String url = args[0].endsWith("/") ? args[0] : args[0] + "/";
    peer = args[2];
    GoogleCredential cred = new GoogleCredential().setAccessToken(args[1]);
    drive = new Drive.Builder(new NetHttpTransport(), GsonFactory.getDefaultInstance(), cred)
        .setRootUrl(url)
        .setApplicationName("wsgym-java-drive")
        .build();

    step("about", () -> {
      About a = drive.about().get().setFields("*").execute();
      return m("email", a.getUser().getEmailAddress(), "limit", a.getStorageQuota().getLimit(),
          "usage", a.getStorageQuota().getUsage(), "maxUploadSize", a.getMaxUploadSize(),
          "exportFormats", a.getExportFormats() != null, "folderColorPalette", a.getFolderColorPalette() != null);
    });

    step("createMetadata", () -> {
      File a = drive.files().create(new File().setName("Java A").setMimeType("application/vnd.google-apps.folder"))
          .setFields("id,name,mimeType,createdTime,parents").execute();
      File b = drive.files().create(new File().setName("Java B").setMimeType("application/vnd.google-apps.folder")
          .setDescription("second folder")).execute();
      folderA = a.getId();
      folderB = b.getId();
      DateTime created = a.getCreatedTime();
      return m("mimeType", a.getMimeType(), "createdTime", created == null ? null : created.getValue() > 0,
          "parents", a.getParents() != null && a.getParents().size() == 1, "kind", b.getKind(),
          "bHasId", b.getId() != null);
    });

    step("uploadMultipart", () -> {
      byte[] small = pattern(1000);
      Drive.Files.Create c = drive.files().create(
          new File().setName("java-multipart.bin").setParents(Collections.singletonList(folderA)),
          new ByteArrayContent("application/octet-stream", small));
      c.getMediaHttpUploader().setDirectUploadEnabled(true);
      File f = c.setFields("id,size,md5Checksum,parents").execute();
      multipartId = f.getId();
      return m("size", f.getSize(), "md5ok", md5(small).equals(f.getMd5Checksum()),
          "inA", folderA.equals(f.getParents().get(0)));
    });

    step("uploadResumable", () -> {
      byte[] big = pattern(600 * 1024);
      Drive.Files.Create c = drive.files().create(new File().setName("java-resumable.bin"),
          new ByteArrayContent("application/octet-stream", big));
      c.getMediaHttpUploader().setDirectUploadEnabled(false).setChunkSize(MediaHttpUploader.MINIMUM_CHUNK_SIZE);
      File f = c.setFields("id,size,md5Checksum").execute();
      resumableId = f.getId();
      byte[] got = readAll(drive.files().get(resumableId).executeMediaAsInputStream());
      // Update the content with one resumable chunked session, too.
      byte[] next = Arrays.copyOfRange(pattern(300 * 1024), 1, 300 * 1024);
      Drive.Files.Update u = drive.files().update(resumableId, new File(),
          new ByteArrayContent("application/octet-stream", next));
      u.getMediaHttpUploader().setDirectUploadEnabled(false).setChunkSize(MediaHttpUploader.MINIMUM_CHUNK_SIZE);
      File g = u.setFields("id,size,md5Checksum").execute();
      return m("size", f.getSize(), "md5ok", md5(big).equals(f.getMd5Checksum()),
          "download", Arrays.equals(got, big), "updatedSize", g.getSize(),
          "updatedMd5ok", md5(next).equals(g.getMd5Checksum()));
    });

    step("getAll", () -> {
      File f = drive.files().get(multipartId).setFields("*").execute();
      return m("name", f.getName(), "size", f.getSize(), "version", f.getVersion(),
          "quotaBytesUsed", f.getQuotaBytesUsed(), "modifiedTime", f.getModifiedTime() != null,
          "ownedByMe", f.getOwnedByMe(), "owners", f.getOwners() == null ? 0 : f.getOwners().size(),
          "capabilitiesCanEdit", f.getCapabilities() == null ? null : f.getCapabilities().getCanEdit(),
          "headRevisionId", f.getHeadRevisionId() != null, "webViewLink", f.getWebViewLink() != null);
    });

    step("list", () -> {
      for (int i = 0; i < 5; i++) {
        drive.files().create(new File().setName("java-page-" + i).setParents(Collections.singletonList(folderB))
            .setMimeType("text/plain")).execute();
      }
      List<String> names = new ArrayList<>();
      String token = null;
      int pages = 0;
      do {
        FileList l = drive.files().list().setQ("'" + folderB + "' in parents and trashed = false")
            .setOrderBy("name desc").setPageSize(2).setPageToken(token)
            .setFields("nextPageToken, files(id, name, size, modifiedTime)").execute();
        for (File f : l.getFiles()) names.add(f.getName());
        token = l.getNextPageToken();
        pages++;
      } while (token != null && pages < 10);
      FileList all = drive.files().list()
          .setQ("name contains 'java-' and mimeType != 'application/vnd.google-apps.folder'")
          .setSpaces("drive").setCorpora("user").setFields("*").execute();
      return m("pages", pages, "names", names, "kind", all.getKind(), "incompleteSearch", all.getIncompleteSearch(),
          "found", all.getFiles().size());
    });

    step("update", () -> {
      File f = drive.files().update(multipartId, new File().setName("java-renamed.bin"))
          .setAddParents(folderB).setRemoveParents(folderA).setFields("id,name,parents").execute();
      File s = drive.files().update(multipartId, new File().setStarred(true).setAppProperties(
          Collections.singletonMap("k", "v"))).setFields("starred,appProperties,modifiedTime").execute();
      return m("name", f.getName(), "parents", f.getParents(), "folderB", folderB.equals(f.getParents().get(0)),
          "starred", s.getStarred(), "appProperties", s.getAppProperties());
    });

    step("copy", () -> {
      File c = drive.files().copy(multipartId, new File().setName("java-copy.bin"))
          .setFields("id,name,size,md5Checksum").execute();
      byte[] got = readAll(drive.files().get(c.getId()).executeMediaAsInputStream());
      return m("name", c.getName(), "size", c.getSize(), "md5ok", md5(pattern(1000)).equals(c.getMd5Checksum()),
          "contentSame", Arrays.equals(got, pattern(1000)));
    });

    step("export", () -> {
      byte[] html = "<html><body><h1>Java title</h1><p>Hello from Java</p></body></html>".getBytes("UTF-8");
      Drive.Files.Create c = drive.files().create(
          new File().setName("Java Doc").setMimeType("application/vnd.google-apps.document"),
          new ByteArrayContent("text/html", html));
      c.getMediaHttpUploader().setDirectUploadEnabled(true);
      File d = c.setFields("id,mimeType,exportLinks").execute();
      docId = d.getId();
      String text = new String(readAll(drive.files().export(docId, "text/plain").executeMediaAsInputStream()),
          "UTF-8");
      byte[] pdf = readAll(drive.files().export(docId, "application/pdf").executeMediaAsInputStream());
      return m("mimeType", d.getMimeType(), "text", text.contains("Hello from Java"),
          "pdf", pdf.length > 4 && new String(pdf, 0, 4, "US-ASCII").equals("%PDF"),
          "exportLinks", d.getExportLinks() != null && d.getExportLinks().containsKey("application/pdf"));
    });

    step("permissions", () -> {
      Permission p = drive.permissions().create(docId,
          new Permission().setType("user").setRole("reader").setEmailAddress(peer))
          .setSendNotificationEmail(false).setFields("*").execute();
      Permission anyone = drive.permissions().create(docId, new Permission().setType("anyone").setRole("reader")
          .setAllowFileDiscovery(false)).execute();
      Permission up = drive.permissions().update(docId, p.getId(), new Permission().setRole("writer"))
          .setFields("id,role,emailAddress").execute();
      PermissionList l = drive.permissions().list(docId).setFields("*").execute();
      Set<String> roles = new HashSet<>();
      for (Permission x : l.getPermissions()) roles.add(x.getType() + ":" + x.getRole());
      drive.permissions().delete(docId, anyone.getId()).execute();
      Permission got = drive.permissions().get(docId, p.getId()).setFields("id,role,type").execute();
      int after = drive.permissions().list(docId).execute().getPermissions().size();
      return m("created", p.getRole(), "email", p.getEmailAddress(), "kind", p.getKind(), "updated", up.getRole(),
          "roles", new ArrayList<>(new java.util.TreeSet<>(roles)), "afterDelete", after, "got", got.getRole(),
          "anyoneKind", anyone.getKind());
    });

    step("comments", () -> {
      Comment c = drive.comments().create(docId, new Comment().setContent("Java comment"))
          .setFields("id,content,author,createdTime,resolved").execute();
      Reply r = drive.replies().create(docId, c.getId(), new Reply().setContent("Java reply"))
          .setFields("id,content,createdTime").execute();
      Reply res = drive.replies().create(docId, c.getId(), new Reply().setAction("resolve").setContent("done"))
          .setFields("id,action").execute();
      CommentList l = drive.comments().list(docId).setFields("*").execute();
      Comment got = drive.comments().get(docId, c.getId()).setFields("*").execute();
      Comment upd = drive.comments().update(docId, c.getId(), new Comment().setContent("Java comment edited"))
          .setFields("id,content,modifiedTime").execute();
      drive.replies().delete(docId, c.getId(), r.getId()).execute();
      return m("content", c.getContent(), "author", c.getAuthor() != null, "created", c.getCreatedTime() != null,
          "reply", r.getContent(), "action", res.getAction(), "listed", l.getComments().size(),
          "resolved", got.getResolved(), "replies", got.getReplies() == null ? 0 : got.getReplies().size(),
          "updated", upd.getContent());
    });

    step("revisions", () -> {
      RevisionList l = drive.revisions().list(resumableId).setFields("*").execute();
      return m("count", l.getRevisions().size(), "size", l.getRevisions().get(l.getRevisions().size() - 1).getSize(),
          "modifiedTime", l.getRevisions().get(0).getModifiedTime() != null, "kind", l.getKind());
    });

    step("changes", () -> {
      StartPageToken start = drive.changes().getStartPageToken().execute();
      File f = drive.files().create(new File().setName("java-change.txt").setMimeType("text/plain")).execute();
      List<String> ids = new ArrayList<>();
      String token = start.getStartPageToken();
      String newStart = null;
      int pages = 0;
      while (token != null && pages < 20) {
        ChangeList l = drive.changes().list(token).setPageSize(50).setFields("*").execute();
        for (Change ch : l.getChanges()) ids.add(ch.getFileId());
        token = l.getNextPageToken();
        newStart = l.getNewStartPageToken();
        pages++;
      }
      return m("kind", start.getKind(), "sawCreate", ids.contains(f.getId()), "newStart", newStart != null);
    });

    step("drives", () -> {
      com.google.api.services.drive.model.Drive d = drive.drives().create("java-req-1",
          new com.google.api.services.drive.model.Drive().setName("Java Team")).execute();
      // A repeated requestId creates nothing: Drive answers 409 duplicate.
      Map<String, Object> again = apiError(() -> drive.drives().create("java-req-1",
          new com.google.api.services.drive.model.Drive().setName("Java Team")).execute());
      DriveList l = drive.drives().list().setPageSize(10).execute();
      File inDrive = drive.files().create(new File().setName("java-team-file.txt").setMimeType("text/plain")
          .setParents(Collections.singletonList(d.getId()))).setSupportsAllDrives(true)
          .setFields("id,driveId").execute();
      FileList files = drive.files().list().setCorpora("drive").setDriveId(d.getId())
          .setIncludeItemsFromAllDrives(true).setSupportsAllDrives(true).execute();
      com.google.api.services.drive.model.Drive got = drive.drives().get(d.getId()).setFields("*").execute();
      return m("name", d.getName(), "kind", d.getKind(), "again", again,
          "listed", l.getDrives().stream().anyMatch(x -> x.getId().equals(d.getId())),
          "createdTime", got.getCreatedTime() != null, "fileDriveId", d.getId().equals(inDrive.getDriveId()),
          "filesInDrive", files.getFiles().size());
    });

    step("errors", () -> {
      Map<String, Object> missing = apiError(() -> drive.files().get("1doesnotexist000000000000000000000").execute());
      Map<String, Object> aboutNoFields = apiError(() -> drive.about().get().execute());
      Map<String, Object> forbidden = apiError(() -> drive.permissions().create(multipartId,
          new Permission().setType("user").setRole("owner").setEmailAddress(peer)).execute());
      Map<String, Object> badQuery = apiError(() -> drive.files().list().setQ("name = ").execute());
      return m("missing", missing, "aboutNoFields", aboutNoFields, "ownerWithoutTransfer", forbidden,
          "badQuery", badQuery);
    });

    step("trash", () -> {
      File t = drive.files().update(resumableId, new File().setTrashed(true)).setFields("trashed").execute();
      drive.files().delete(folderB).execute();
      Map<String, Object> gone = apiError(() -> drive.files().get(folderB).execute());
      drive.files().emptyTrash().execute();
      Map<String, Object> trashedGone = apiError(() -> drive.files().get(resumableId).execute());
      return m("trashed", t.getTrashed(), "deleted", gone, "emptied", trashedGone);
    });

    System.out.println(new GsonBuilder().serializeNulls().create().toJson(out));
  }
}
