/**
 * Word lists for the benchmark dataset (bench/lib/dataset.ts): a few hundred US street names,
 * 150 cities with their state and first zip code, and agent names. Lists rather than random
 * letters, so that a search term such as a street name, a city or a surname matches the share of
 * rows it would in a real brokerage, not none or all of them.
 */

const words = (text: string) => text.trim().split(/\s*\|\s*/);

export const STREET_NAMES = words(`
  Main | Oak | Pine | Maple | Cedar | Elm | Washington | Lake | Hill | Park | Walnut | Chestnut |
  Spruce | Birch | Willow | Sycamore | Magnolia | Dogwood | Hickory | Laurel | Poplar | Aspen |
  Juniper | Cypress | Redwood | Sequoia | Alder | Holly | Hawthorn | Linden | Mulberry | Beech |
  Sassafras | Buckeye | Locust | Tamarack | Larch | Hemlock | Palmetto | Mesquite | Ironwood |
  Jefferson | Lincoln | Madison | Monroe | Adams | Jackson | Franklin | Hamilton | Roosevelt |
  Kennedy | Grant | Harrison | Cleveland | Tyler | Polk | Taylor | Fillmore | Pierce | Buchanan |
  Garfield | Arthur | McKinley | Coolidge | Hoover | Truman | Eisenhower | Wilson | Harding |
  Carter | Reagan | Webster | Clay | Calhoun | Marshall | Hancock | Revere | Putnam | Greene |
  First | Second | Third | Fourth | Fifth | Sixth | Seventh | Eighth | Ninth | Tenth | Eleventh |
  Twelfth | Thirteenth | Fourteenth | Fifteenth | Sixteenth | Seventeenth | Eighteenth |
  Nineteenth | Twentieth | Center | Church | Mill | River | Bridge | Spring | Prospect | Union |
  Market | Water | High | Front | Broad | Court | Academy | College | University | School |
  Railroad | Depot | Canal | Harbor | Bay | Ocean | Beach | Shore | Cove | Pier | Lighthouse |
  Meadow | Valley | Ridge | Summit | Highland | Forest | Woodland | Orchard | Vineyard | Prairie |
  Canyon | Mesa | Sunset | Sunrise | Horizon | Vista | Skyline | Mountain | Glen | Hollow |
  Brookside | Creekside | Riverside | Lakeview | Hillcrest | Fairview | Pleasant | Grandview |
  Bellevue | Belmont | Fairmont | Rosemont | Claremont | Edgewood | Greenwood | Kingswood |
  Sherwood | Brentwood | Wildwood | Briarwood | Oakwood | Pinecrest | Cedarcrest | Ashford |
  Bradford | Stratford | Ashland | Oxford | Cambridge | Windsor | Kensington | Chelsea | Dover |
  Lexington | Concord | Salem | Bristol | Camden | Durham | Essex | Kent | Norfolk | Suffolk |
  Sussex | Surrey | Warwick | York | Lancaster | Chester | Worcester | Plymouth | Newport |
  Alameda | Arroyo | Camino | Cordova | Del Mar | El Dorado | Esperanza | La Paloma | Las Palmas |
  Los Robles | Mar Vista | Mariposa | Monterey | Palomar | San Marino | Santa Rosa | Sierra |
  Sonoma | Tierra | Ventura | Verde | Cherokee | Cheyenne | Comanche | Dakota | Mohawk | Navajo |
  Seminole | Shawnee | Apache | Iroquois | Sioux | Ottawa | Miami | Huron | Erie | Ontario |
  Superior | Michigan | Ohio | Indiana | Illinois | Kentucky | Virginia | Carolina | Georgia |
  Florida | Alabama | Tennessee | Missouri | Kansas | Nebraska | Colorado | Nevada | Oregon |
  Montana | Wyoming | Idaho | Arizona | Utah | Texas | Vermont | Maine | Delaware | Cardinal |
  Bluebird | Robin | Sparrow | Oriole | Meadowlark | Heron | Falcon | Eagle | Hawk | Osprey |
  Pelican | Quail | Swan | Dove | Wren | Finch | Lark | Raven | Kingfisher | Partridge | Pheasant |
  Primrose | Rosewood | Lilac | Jasmine | Gardenia | Camellia | Azalea | Hibiscus | Orchid |
  Lavender | Clover | Daisy | Tulip | Marigold | Sunflower | Honeysuckle | Wisteria | Bayberry |
  Cranberry | Blueberry | Raspberry | Blackberry | Elderberry | Peach | Cherry | Plum | Apple |
  Pear | Quince | Olive | Almond | Pecan | Hazel | Acorn | Thistle | Fern | Heather | Ivy |
  Morningside | Evergreen | Silverado | Goldenrod | Copperfield | Ironside | Stonegate |
  Fox Run | Deer Path | Bear Creek | Wolf Trap | Eagle Crest | Quail Hollow | Turkey Run |
  Old Mill | Stagecoach | Wagon Wheel | Saddle | Bridle | Ranch | Homestead | Pioneer | Frontier
`);

export const STREET_SUFFIXES = [
  'St',
  'Ave',
  'Blvd',
  'Dr',
  'Ln',
  'Rd',
  'Ct',
  'Way',
  'Pl',
  'Ter',
  'Cir',
  'Pkwy',
];

/** [city, state, first zip code]: each transaction's zip is that code plus 0 to 39. */
export const CITIES: ReadonlyArray<readonly [string, string, number]> = [
  ['Portland', 'OR', 97201],
  ['Eugene', 'OR', 97401],
  ['Salem', 'OR', 97301],
  ['Bend', 'OR', 97701],
  ['Medford', 'OR', 97501],
  ['Seattle', 'WA', 98101],
  ['Spokane', 'WA', 99201],
  ['Tacoma', 'WA', 98402],
  ['Bellingham', 'WA', 98225],
  ['Olympia', 'WA', 98501],
  ['San Francisco', 'CA', 94102],
  ['Oakland', 'CA', 94601],
  ['San Jose', 'CA', 95110],
  ['Sacramento', 'CA', 95814],
  ['Fresno', 'CA', 93701],
  ['Los Angeles', 'CA', 90001],
  ['San Diego', 'CA', 92101],
  ['Long Beach', 'CA', 90802],
  ['Bakersfield', 'CA', 93301],
  ['Santa Barbara', 'CA', 93101],
  ['Riverside', 'CA', 92501],
  ['Irvine', 'CA', 92602],
  ['Pasadena', 'CA', 91101],
  ['Berkeley', 'CA', 94702],
  ['Stockton', 'CA', 95202],
  ['Modesto', 'CA', 95350],
  ['Santa Rosa', 'CA', 95401],
  ['Chico', 'CA', 95926],
  ['Redding', 'CA', 96001],
  ['Monterey', 'CA', 93940],
  ['Boise', 'ID', 83702],
  ['Coeur d Alene', 'ID', 83814],
  ['Reno', 'NV', 89501],
  ['Las Vegas', 'NV', 89101],
  ['Henderson', 'NV', 89002],
  ['Phoenix', 'AZ', 85003],
  ['Tucson', 'AZ', 85701],
  ['Mesa', 'AZ', 85201],
  ['Scottsdale', 'AZ', 85250],
  ['Flagstaff', 'AZ', 86001],
  ['Salt Lake City', 'UT', 84101],
  ['Provo', 'UT', 84601],
  ['Ogden', 'UT', 84401],
  ['Denver', 'CO', 80202],
  ['Boulder', 'CO', 80301],
  ['Colorado Springs', 'CO', 80903],
  ['Fort Collins', 'CO', 80521],
  ['Albuquerque', 'NM', 87102],
  ['Santa Fe', 'NM', 87501],
  ['Billings', 'MT', 59101],
  ['Missoula', 'MT', 59801],
  ['Cheyenne', 'WY', 82001],
  ['Anchorage', 'AK', 99501],
  ['Honolulu', 'HI', 96813],
  ['Dallas', 'TX', 75201],
  ['Houston', 'TX', 77002],
  ['Austin', 'TX', 78701],
  ['San Antonio', 'TX', 78205],
  ['El Paso', 'TX', 79901],
  ['Fort Worth', 'TX', 76102],
  ['Lubbock', 'TX', 79401],
  ['Plano', 'TX', 75023],
  ['Corpus Christi', 'TX', 78401],
  ['Amarillo', 'TX', 79101],
  ['Oklahoma City', 'OK', 73102],
  ['Tulsa', 'OK', 74103],
  ['Wichita', 'KS', 67202],
  ['Topeka', 'KS', 66603],
  ['Omaha', 'NE', 68102],
  ['Lincoln', 'NE', 68508],
  ['Sioux Falls', 'SD', 57104],
  ['Fargo', 'ND', 58102],
  ['Minneapolis', 'MN', 55401],
  ['Saint Paul', 'MN', 55101],
  ['Duluth', 'MN', 55802],
  ['Des Moines', 'IA', 50309],
  ['Cedar Rapids', 'IA', 52401],
  ['Kansas City', 'MO', 64105],
  ['Saint Louis', 'MO', 63101],
  ['Springfield', 'MO', 65806],
  ['Little Rock', 'AR', 72201],
  ['New Orleans', 'LA', 70112],
  ['Baton Rouge', 'LA', 70801],
  ['Shreveport', 'LA', 71101],
  ['Jackson', 'MS', 39201],
  ['Memphis', 'TN', 38103],
  ['Nashville', 'TN', 37203],
  ['Knoxville', 'TN', 37902],
  ['Chattanooga', 'TN', 37402],
  ['Louisville', 'KY', 40202],
  ['Lexington', 'KY', 40507],
  ['Birmingham', 'AL', 35203],
  ['Montgomery', 'AL', 36104],
  ['Huntsville', 'AL', 35801],
  ['Mobile', 'AL', 36602],
  ['Atlanta', 'GA', 30303],
  ['Savannah', 'GA', 31401],
  ['Augusta', 'GA', 30901],
  ['Athens', 'GA', 30601],
  ['Jacksonville', 'FL', 32202],
  ['Miami', 'FL', 33128],
  ['Tampa', 'FL', 33602],
  ['Orlando', 'FL', 32801],
  ['Tallahassee', 'FL', 32301],
  ['Gainesville', 'FL', 32601],
  ['Sarasota', 'FL', 34230],
  ['Pensacola', 'FL', 32501],
  ['Charleston', 'SC', 29401],
  ['Columbia', 'SC', 29201],
  ['Greenville', 'SC', 29601],
  ['Charlotte', 'NC', 28202],
  ['Raleigh', 'NC', 27601],
  ['Durham', 'NC', 27701],
  ['Asheville', 'NC', 28801],
  ['Wilmington', 'NC', 28401],
  ['Richmond', 'VA', 23219],
  ['Norfolk', 'VA', 23510],
  ['Roanoke', 'VA', 24011],
  ['Charlottesville', 'VA', 22902],
  ['Baltimore', 'MD', 21202],
  ['Annapolis', 'MD', 21401],
  ['Dover', 'DE', 19901],
  ['Philadelphia', 'PA', 19102],
  ['Pittsburgh', 'PA', 15222],
  ['Harrisburg', 'PA', 17101],
  ['Allentown', 'PA', 18101],
  ['Newark', 'NJ', 7102],
  ['Trenton', 'NJ', 8608],
  ['Princeton', 'NJ', 8540],
  ['Brooklyn', 'NY', 11201],
  ['Buffalo', 'NY', 14202],
  ['Rochester', 'NY', 14604],
  ['Albany', 'NY', 12207],
  ['Syracuse', 'NY', 13202],
  ['Ithaca', 'NY', 14850],
  ['Hartford', 'CT', 6103],
  ['New Haven', 'CT', 6510],
  ['Providence', 'RI', 2903],
  ['Boston', 'MA', 2108],
  ['Worcester', 'MA', 1608],
  ['Cambridge', 'MA', 2138],
  ['Burlington', 'VT', 5401],
  ['Manchester', 'NH', 3101],
  ['Portsmouth', 'NH', 3801],
  ['Bangor', 'ME', 4401],
  ['Cleveland', 'OH', 44113],
  ['Columbus', 'OH', 43215],
  ['Cincinnati', 'OH', 45202],
  ['Toledo', 'OH', 43604],
  ['Detroit', 'MI', 48226],
  ['Ann Arbor', 'MI', 48104],
  ['Grand Rapids', 'MI', 49503],
  ['Chicago', 'IL', 60602],
  ['Naperville', 'IL', 60540],
  ['Peoria', 'IL', 61602],
  ['Indianapolis', 'IN', 46204],
  ['Fort Wayne', 'IN', 46802],
  ['Milwaukee', 'WI', 53202],
  ['Madison', 'WI', 53703],
];

export const FIRST_NAMES = words(`
  James | Mary | Robert | Patricia | John | Jennifer | Michael | Linda | David | Elizabeth |
  William | Barbara | Richard | Susan | Joseph | Jessica | Thomas | Sarah | Charles | Karen |
  Christopher | Lisa | Daniel | Nancy | Matthew | Betty | Anthony | Margaret | Mark | Sandra |
  Donald | Ashley | Steven | Kimberly | Paul | Emily | Andrew | Donna | Joshua | Michelle |
  Kenneth | Carol | Kevin | Amanda | Brian | Dorothy | George | Melissa | Timothy | Deborah |
  Ronald | Stephanie | Edward | Rebecca | Jason | Sharon | Jeffrey | Laura | Ryan | Cynthia |
  Jacob | Kathleen | Gary | Amy | Nicholas | Angela | Eric | Shirley | Jonathan | Anna |
  Stephen | Brenda | Larry | Pamela | Justin | Emma | Scott | Nicole | Brandon | Helen |
  Benjamin | Samantha | Samuel | Katherine | Gregory | Christine | Alexander | Debra | Patrick |
  Rachel | Frank | Carolyn | Raymond | Janet | Jack | Catherine | Dennis | Maria | Jerry |
  Heather | Tyler | Diane | Aaron | Ruth | Jose | Julie | Adam | Olivia | Nathan | Joyce |
  Henry | Virginia | Douglas | Victoria | Zachary | Kelly | Peter | Lauren | Kyle | Christina |
  Ethan | Joan | Walter | Evelyn | Noah | Judith | Jeremy | Megan | Christian | Andrea |
  Keith | Cheryl | Roger | Hannah | Terry | Jacqueline | Gerald | Martha | Harold | Gloria |
  Sean | Teresa | Austin | Ann | Carl | Sara | Arthur | Madison | Lawrence | Frances
`);

/** About 250 surnames: a surname names a handful of the 1,000 agents, as in a real brokerage. */
export const LAST_NAMES = words(`
  Smith | Johnson | Williams | Brown | Jones | Garcia | Miller | Davis | Rodriguez | Martinez |
  Hernandez | Lopez | Gonzalez | Wilson | Anderson | Thomas | Taylor | Moore | Jackson | Martin |
  Lee | Perez | Thompson | White | Harris | Sanchez | Clark | Ramirez | Lewis | Robinson |
  Walker | Young | Allen | King | Wright | Scott | Torres | Nguyen | Hill | Flores | Green |
  Adams | Nelson | Baker | Hall | Rivera | Campbell | Mitchell | Carter | Roberts | Gomez |
  Phillips | Evans | Turner | Diaz | Parker | Cruz | Edwards | Collins | Reyes | Stewart |
  Morris | Morales | Murphy | Cook | Rogers | Gutierrez | Ortiz | Morgan | Cooper | Peterson |
  Bailey | Reed | Kelly | Howard | Ramos | Kim | Cox | Ward | Richardson | Watson | Brooks |
  Chavez | Wood | James | Bennett | Gray | Mendoza | Ruiz | Hughes | Price | Alvarez | Castillo |
  Sanders | Patel | Myers | Long | Ross | Foster | Jimenez | Powell | Jenkins | Perry | Russell |
  Sullivan | Bell | Coleman | Butler | Henderson | Barnes | Gonzales | Fisher | Vasquez |
  Simmons | Romero | Jordan | Patterson | Alexander | Hamilton | Graham | Reynolds | Griffin |
  Wallace | Moreno | West | Cole | Hayes | Bryant | Herrera | Gibson | Ellis | Tran | Medina |
  Aguilar | Stevens | Murray | Ford | Castro | Marshall | Owens | Harrison | Fernandez |
  McDonald | Woods | Washington | Kennedy | Wells | Vargas | Henry | Chen | Freeman | Webb |
  Tucker | Guzman | Burns | Crawford | Olson | Simpson | Porter | Hunter | Gordon | Mendez |
  Silva | Shaw | Snyder | Mason | Dixon | Munoz | Hunt | Hicks | Holmes | Palmer | Wagner |
  Black | Robertson | Boyd | Rose | Stone | Salazar | Fox | Warren | Mills | Meyer | Rice |
  Schmidt | Garza | Daniels | Ferguson | Nichols | Stephens | Soto | Weaver | Ryan | Gardner |
  Payne | Grant | Dunn | Kelley | Spencer | Hawkins | Arnold | Pierce | Vazquez | Hansen |
  Peters | Santos | Hart | Bradley | Knight | Elliott | Cunningham | Duncan | Armstrong |
  Hudson | Carroll | Lane | Riley | Andrews | Alvarado | Ray | Delgado | Berry | Perkins |
  Hoffman | Johnston | Matthews | Pena | Richards | Contreras | Willis | Carpenter | Lawrence |
  Sandoval | Whitfield | Okafor | Lindqvist | Castellanos | Abernathy | Yamamoto | Kowalski
`);

export const COMPANIES = words(`
  Summit Realty | Harbor Homes | Keystone Properties | Pinnacle Real Estate | Lakeside Realty |
  Heritage Brokers | Evergreen Realty Group | Cornerstone Homes | Blue Sky Properties |
  Golden Gate Realty | Prairie Land Co | Coastal Living Realty | Mountain View Brokers |
  Redwood Realty | Liberty Home Partners | Northstar Realty | Sunbelt Properties | Copper Key Realty
`);
