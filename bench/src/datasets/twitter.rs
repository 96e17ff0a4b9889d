//! Dataset 7a: typed structs for `twitter.json` (a search API response).
//! Fields that are always `null` in the document are `Option<String>`.
//!
//! bitcode runs through its serde API: its derive cannot express the
//! recursive `Status`. msgpacker is absent (no `Box<T>` support for `retweeted_status`) and
//! minicbor is not wired yet (it needs an `#[n(i)]` index on each of the ~100
//! fields).

use serde::{Deserialize, Serialize};

/// The document.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct Twitter {
    /// The tweets.
    pub statuses: Vec<Status>,
    /// Search metadata.
    pub search_metadata: SearchMetadata,
}

/// Search metadata.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct SearchMetadata {
    /// Seconds taken.
    pub completed_in: f64,
    /// Max id.
    pub max_id: u64,
    /// Max id as text.
    pub max_id_str: String,
    /// Next page query.
    pub next_results: String,
    /// Query.
    pub query: String,
    /// Refresh query.
    pub refresh_url: String,
    /// Count.
    pub count: u64,
    /// Since id.
    pub since_id: u64,
    /// Since id as text.
    pub since_id_str: String,
}

/// A tweet.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct Status {
    /// Always null here.
    pub metadata: Metadata,
    /// Creation date.
    pub created_at: String,
    /// Id.
    pub id: u64,
    /// Id as text.
    pub id_str: String,
    /// Text.
    pub text: String,
    /// Source (HTML).
    pub source: String,
    /// Truncated.
    pub truncated: bool,
    /// In reply to status.
    pub in_reply_to_status_id: Option<u64>,
    /// In reply to status, as text.
    pub in_reply_to_status_id_str: Option<String>,
    /// In reply to user.
    pub in_reply_to_user_id: Option<u64>,
    /// In reply to user, as text.
    pub in_reply_to_user_id_str: Option<String>,
    /// In reply to screen name.
    pub in_reply_to_screen_name: Option<String>,
    /// Author.
    pub user: User,
    /// Always null here.
    pub geo: Option<String>,
    /// Always null here.
    pub coordinates: Option<String>,
    /// Always null here.
    pub place: Option<String>,
    /// Always null here.
    pub contributors: Option<String>,
    /// The retweeted tweet.
    #[serde(default)]
    pub retweeted_status: Option<Box<Status>>,
    /// Retweets.
    pub retweet_count: u32,
    /// Favourites.
    pub favorite_count: u32,
    /// Entities.
    pub entities: StatusEntities,
    /// Favourited.
    pub favorited: bool,
    /// Retweeted.
    pub retweeted: bool,
    /// Possibly sensitive.
    #[serde(default)]
    pub possibly_sensitive: Option<bool>,
    /// Language.
    pub lang: String,
}

/// Status metadata.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct Metadata {
    /// Result type.
    pub result_type: String,
    /// ISO language code.
    pub iso_language_code: String,
}

/// A user.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct User {
    /// Id.
    pub id: u64,
    /// Id as text.
    pub id_str: String,
    /// Name.
    pub name: String,
    /// Screen name.
    pub screen_name: String,
    /// Location.
    pub location: String,
    /// Description.
    pub description: String,
    /// URL.
    pub url: Option<String>,
    /// Entities.
    pub entities: UserEntities,
    /// Protected.
    pub protected: bool,
    /// Followers.
    pub followers_count: u32,
    /// Friends.
    pub friends_count: u32,
    /// Listed.
    pub listed_count: u32,
    /// Creation date.
    pub created_at: String,
    /// Favourites.
    pub favourites_count: u32,
    /// UTC offset.
    pub utc_offset: Option<i32>,
    /// Time zone.
    pub time_zone: Option<String>,
    /// Geo enabled.
    pub geo_enabled: bool,
    /// Verified.
    pub verified: bool,
    /// Tweets.
    pub statuses_count: u32,
    /// Language.
    pub lang: String,
    /// Contributors enabled.
    pub contributors_enabled: bool,
    /// Translator.
    pub is_translator: bool,
    /// Translation enabled.
    pub is_translation_enabled: bool,
    /// Colour.
    pub profile_background_color: String,
    /// Image.
    pub profile_background_image_url: String,
    /// Image (https).
    pub profile_background_image_url_https: String,
    /// Tiled.
    pub profile_background_tile: bool,
    /// Image.
    pub profile_image_url: String,
    /// Image (https).
    pub profile_image_url_https: String,
    /// Banner.
    #[serde(default)]
    pub profile_banner_url: Option<String>,
    /// Colour.
    pub profile_link_color: String,
    /// Colour.
    pub profile_sidebar_border_color: String,
    /// Colour.
    pub profile_sidebar_fill_color: String,
    /// Colour.
    pub profile_text_color: String,
    /// Uses background image.
    pub profile_use_background_image: bool,
    /// Default profile.
    pub default_profile: bool,
    /// Default image.
    pub default_profile_image: bool,
    /// Following.
    pub following: bool,
    /// Follow request sent.
    pub follow_request_sent: bool,
    /// Notifications.
    pub notifications: bool,
}

/// A user's entities.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct UserEntities {
    /// URL entity.
    #[serde(default)]
    pub url: Option<UserUrl>,
    /// Description entity.
    pub description: UserUrl,
}

/// A list of URLs.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct UserUrl {
    /// URLs.
    pub urls: Vec<Url>,
}

/// A URL entity.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct Url {
    /// Short URL.
    pub url: String,
    /// Expanded URL.
    pub expanded_url: String,
    /// Display URL.
    pub display_url: String,
    /// Offsets.
    pub indices: [u32; 2],
}

/// A status's entities.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct StatusEntities {
    /// Hashtags.
    pub hashtags: Vec<Hashtag>,
    /// Symbols (always empty here).
    pub symbols: Vec<String>,
    /// URLs.
    pub urls: Vec<Url>,
    /// Mentions.
    pub user_mentions: Vec<UserMention>,
    /// Media.
    #[serde(default)]
    pub media: Option<Vec<Media>>,
}

/// A hashtag.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct Hashtag {
    /// Text.
    pub text: String,
    /// Offsets.
    pub indices: [u32; 2],
}

/// A mention.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct UserMention {
    /// Screen name.
    pub screen_name: String,
    /// Name.
    pub name: String,
    /// Id.
    pub id: u64,
    /// Id as text.
    pub id_str: String,
    /// Offsets.
    pub indices: [u32; 2],
}

/// A media entity.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct Media {
    /// Id.
    pub id: u64,
    /// Id as text.
    pub id_str: String,
    /// Offsets.
    pub indices: [u32; 2],
    /// Media URL.
    pub media_url: String,
    /// Media URL (https).
    pub media_url_https: String,
    /// Short URL.
    pub url: String,
    /// Display URL.
    pub display_url: String,
    /// Expanded URL.
    pub expanded_url: String,
    /// Kind.
    #[serde(rename = "type")]
    #[msgpack(key = "type")]
    #[codec(rename = "type")]
    pub kind: String,
    /// Sizes.
    pub sizes: Sizes,
    /// Source status.
    #[serde(default)]
    pub source_status_id: Option<u64>,
    /// Source status as text.
    #[serde(default)]
    pub source_status_id_str: Option<String>,
}

/// Media sizes.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct Sizes {
    /// Medium.
    pub medium: Size,
    /// Small.
    pub small: Size,
    /// Thumbnail.
    pub thumb: Size,
    /// Large.
    pub large: Size,
}

/// One media size.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[derive(codec::Codec)]
pub struct Size {
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
    /// Resize mode.
    pub resize: String,
}

/// The `twitter_ids` dataset: a few fields of each tweet, read from the
/// whole document. Everything else (the search metadata, most of each
/// status and user, the retweeted statuses) is skipped, so the case times
/// each implementation's skipping of unknown fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, codec::Codec)]
pub struct TwitterIds {
    /// The tweets.
    pub statuses: Vec<StatusIds>,
}

/// A tweet's id, text and author.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, codec::Codec)]
pub struct StatusIds {
    /// Id.
    pub id: u64,
    /// Text.
    pub text: String,
    /// The author.
    pub user: UserIds,
}

/// An author's id and screen name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, codec::Codec)]
pub struct UserIds {
    /// Id.
    pub id: u64,
    /// Screen name.
    pub screen_name: String,
}
