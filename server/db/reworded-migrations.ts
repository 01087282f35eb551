/**
 * Released migrations whose comments were reworded afterwards. Only `--` comments changed (they
 * named where a rule came from instead of saying why); every statement is byte for byte the one
 * that ran, so a database that applied the earlier text is exactly as up to date as one that
 * applies the new. For each: `reworded`, the sha256 of the file as it is now, and `earlier`, the
 * sha256 of the file as released, with LF line endings and then with CRLF (a Windows checkout).
 *
 * migrate.ts accepts an earlier checksum only while the file is still exactly the reworded one:
 * any other change to an applied migration, before or after the rewording, is still refused.
 * Add an entry only for a change that leaves every statement as it was, with the checksums of
 * the file as it was released (`git show <commit>:<path> | sha256sum`).
 */
export type Rewording = { reworded: string; earlier: readonly string[] };

export const REWORDED_MIGRATIONS: ReadonlyMap<string, Rewording> = new Map([
  [
    '20261121150000_stored_files',
    {
      reworded: '970a58862e2b812b32640152f5accce9be8cdf3de44550b9f54067c47a705bfd',
      earlier: [
        '61d4e5575659e012b3f34d36ff7850f59c907090f17fa1407b5bfc8094b203e6',
        '87dbec8bab9bb4dc40eddb129d195ed18593e8d6426ac08f8180b528d7ba3c8d',
      ],
    },
  ],
  [
    '20261121170000_transactions_list_index',
    {
      reworded: 'bafbf54f2737df91863d35fa388ccb4e0f014a40bcf39802a183a9674382ce02',
      earlier: [
        'abe893c830ed4f965b1bee04676463333b7dceb5dd53ef0398e92414ec7da0f5',
        'e3d3fdfceba776ae913b83e5ae72fbddfa2f6c6898694981604bd75393c146d6',
      ],
    },
  ],
  [
    '20261121180000_transactions_search_index',
    {
      reworded: 'd3495673e729400b4b8593b57bf83fb55e845eb5de1c30d7c03207f99f48391b',
      earlier: [
        '74d3fc52b77260d284243b389adadc256a48d45fa0e4e77bde3f9037747317b5',
        '951f2bafb8b4c5dfbb4e77fe63c64d52ff5aa71b11de64813d596859345d7a43',
      ],
    },
  ],
  [
    '20261122090000_rate_limit_windows',
    {
      reworded: '1d389e91662f5e04f103931f99df3768ca3937b76dcf64f251efa8b282a00226',
      earlier: [
        'e726e6944d6c058cb6b804175a3f0783733ad16e2522e511c57d71bdd52916d9',
        '9321a9ef2a8c96c201557cd68c29a97c199dff0b03ae881bf36badde973796ed',
      ],
    },
  ],
  [
    '20261125170000_notification_transactions',
    {
      reworded: '5f921be2da4fdc551da1464b0c6ac83b9f56902038fdc780e4164388fede1eef',
      earlier: [
        '69ca0280106cc17b150d037e827711d7b1c14167e2724344656b32feb76cc740',
        'b08139276c358a08ff1a4a73643adb0106b5f343912263ba91a6b12fd6434c01',
      ],
    },
  ],
  [
    '20261125170100_user_deactivated_at',
    {
      reworded: 'a371e9234c54fb624ce73b39638e05fa97129585626eb99a31cc616fc40b30f5',
      earlier: [
        '278fb25b21d00fbd9453bc793b48801957a0bd3a45af3db92839732f58fd1045',
        '651fe08fc6b7c7997d957088069657612b17d679996f6a9676babe85167a6c4d',
      ],
    },
  ],
  [
    '20261126120000_compliance_workflow',
    {
      reworded: 'de843501d3f4022ce91b13f774559b38cd54e81acc4ba0e5f7a397be2d66015a',
      earlier: [
        '3a4879058fe4fe1cb570f8b0dee9b61534219c4f7cb4e1add55fad932d6688be',
        '22c82ad5cd48b03b74e4b9b49a88cd4c574c195b63273efbb181ad4488526543',
      ],
    },
  ],
  [
    '20261126190000_transactions_state_count_idx',
    {
      reworded: '0da88b83464d90a245a1e30dbbd04f29d8599120bed22adc328f8030446a9d27',
      earlier: [
        '96baf5abc128c98d447dc9ca91140b711f19e5a625d0c1fd55f760859e9ff667',
        '6dad9b292c5e5c191e306bafb85546393812b2a4b8beff7fae8c1e5d4785cef0',
      ],
    },
  ],
  [
    '20261127090000_jobs_mail_key_dates',
    {
      reworded: '8f480a6533c3524460222905ca759d7c74cad226c4aaf2013fb4d30aacdb7c0a',
      earlier: [
        'c0346e8fb817489242cedea6ebc10d302dc8a4f0bec68f184828ad20e089a4a8',
        '0592fb2c4358cc83790027dc20b050819da87eedce76ef55093b4dc3f0d3c0c4',
      ],
    },
  ],
  [
    '20261128090000_api_keys_idempotency',
    {
      reworded: 'eba353ce27a5a9c7b104c3befe827c9127a2eb485b2eabe111bd196d28d6a8eb',
      earlier: [
        'cb61e3473164ee02be92c1aae5f6e6a9ec4d23cb778bd551319c50021a7450b8',
        'cd98c8ccbd226abd2e74c2b959b229b67fa476af308f5f0b160b44a6a40c22f8',
      ],
    },
  ],
  [
    '20261128100000_webhooks',
    {
      reworded: 'cff98dd0d0686a83cdbbf1363a84103fa5fff7f859d31b1306dd3db80dc75e78',
      earlier: [
        'bcc560e06aa418496eb9c8128ab64bcb0efd9d5b0210d6341b83f3e89a25d108',
        'e2f4d4bb862297a7b85d8873c2ed09a76d0e3b29003256b3fcb715ff96a5cd4a',
      ],
    },
  ],
  [
    '20261129090000_broker_dashboard',
    {
      reworded: '513b0df2b9381a5692ec555ef12b6653567957b6fcb77656ec1731d7f60f1ada',
      earlier: [
        '9daabbb45b4a9a9786dfd06ed6b3c6631c708260eeecd8126e5b507dec378145',
        '93502b47a1f1202b589c6f8f260332c365d094686a1297e2f85b3befb36fde97',
      ],
    },
  ],
  [
    '20261130090000_review_figures',
    {
      reworded: '337d853d6d04c8d9e9318ae5243741c0a858828b01afc298b741755a98fca698',
      earlier: [
        'd5de70939bf4a03c204cbf471bda4417654613877c4bf15146b0a50daa0646a1',
        '88c2299a75eae77815bbc12a4d8eaafb8012cfb4d0a71858e8c5469063543442',
      ],
    },
  ],
  [
    '20261201090000_document_intake',
    {
      reworded: 'e46585f9fc3e4aa250297ca0ae93f38eac922280cc5a38688ae8a74889b87e58',
      earlier: [
        'f5234bb5c8ce353d1257708275ff82790280be5a74c3abac15240cab2683dd26',
        '832c588474847d71d030db3210de69f11d5e6f2543186045130d0ad0318631df',
      ],
    },
  ],
  [
    '20261202090000_admin_notices',
    {
      reworded: '0265f88c8fa742aa830b477132c64f4eb4dcc2a700d5a38a156df72cbdc46019',
      earlier: [
        '2607d704e17b3d20e6c41eb4f77759693db89b54465fc684e34edc68c47a789a',
        'd12f2a639914bd4bcc80d7495f4d9092eec48e76975eebf5dd096dc40ce4fef3',
      ],
    },
  ],
]);
